# Sourced by .ci/deps, .ci/debian and .ci/clean-machine: apt's network
# steps, made to outlast a mirror caught mid-sync.  A mirror that is being
# updated serves a Release file whose sizes and hashes do not match the
# index files beside it for a minute or two ("File has unexpected size ...
# Mirror sync in progress?"): apt-get update then exits with 100.  Retry
# with a growing pause; if the mirror is still inconsistent, go on with
# the lists already on disk when there are any, and say so.

# Wait for, rather than fail on, another apt or dpkg that holds the lock.
apt_get() { apt-get -o DPkg::Lock::Timeout=600 "$@"; }

APT_LISTS_STALE=0	# 1: the last apt_update went on with old lists

apt_update() {
	local try pause=10
	APT_LISTS_STALE=0
	for try in 1 2 3; do
		apt_get update -qq && return 0
		[ "$try" -lt 3 ] || break
		echo "apt-get update failed (try $try of 3); again in $pause s" >&2
		sleep "$pause"
		pause=$((pause * 3))
	done
	if compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
		echo "apt-get update: the mirror stayed inconsistent; going on" \
			"with the package lists already here" >&2
		APT_LISTS_STALE=1
		return 0
	fi
	return 1
}

# mmdebstrap fetches its own lists from the same mirror: one more try
# after a pause, for the same reason.  LOG gets its output; TARGET, the
# chroot among ARGS, is removed before the second try.
#   mmdebstrap_retry LOG TARGET ARGS...
mmdebstrap_retry() {
	local log=$1 target=$2
	shift 2
	mmdebstrap "$@" >"$log" 2>&1 && return 0
	echo "mmdebstrap failed; again in 60 s (a mirror mid-sync?)" >&2
	tail -n 5 "$log" >&2
	sleep 60
	rm -rf --one-file-system "$target"
	mmdebstrap "$@" >"$log" 2>&1
}

# The host's apt sources of bookworm and its suites (-updates,
# -security), "deb SITE SUITE main" as mmdebstrap takes them, into the
# array BOOKWORM_SOURCES; then bookworm's InRelease fetched from its
# mirror into DIR, to know the mirror answers.  2 where the host has no
# bookworm, 1 where its mirror does not answer.
#   bookworm_sources DIR
bookworm_sources() {
	local mirror
	# shellcheck disable=SC2016
	mapfile -t BOOKWORM_SOURCES < <(apt-get indextargets \
		'Identifier: Packages' --format '$(SITE) $(CODENAME)' |
		awk '$2 ~ /^bookworm(-|$)/ { print "deb " $0 " main" }' |
		sort -u)
	mirror=$(printf '%s\n' "${BOOKWORM_SOURCES[@]}" |
		awk '$3 == "bookworm" { print $2 }')
	[ -n "$mirror" ] || return 2
	/usr/lib/apt/apt-helper download-file \
		"$mirror/dists/bookworm/InRelease" "$1/InRelease" \
		>/dev/null 2>&1 || return 1
}

# mmdebstrap's --setup-hook for a chroot from those sources: the host's
# downloaded .debs hardlinked (else copied) into the chroot's apt cache,
# to save downloads (apt checks each against the chroot's own lists).
# shellcheck disable=SC2016
APT_CACHE_HOOK='a=/var/cache/apt/archives; mkdir -p "$1$a"
	cp -l "$a"/*.deb "$1$a/" 2>/dev/null || cp "$a"/*.deb "$1$a/" || true'
