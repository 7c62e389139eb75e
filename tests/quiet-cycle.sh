# Sourced by the --changes tests: what a cycle over an unchanged tree may
# say.  It is clean only where the change tokens prove "unchanged": where
# the library cannot learn that a mount has multigrain timestamps
# (statmount(2) refused, as it is for an ordinary user in a chroot, whose
# mount root is not reachable from the process root), every token says
# "tick" and every entry is "unproven".  Needs $tool.

# proves FILE [PREFIX...]: do FILE's change tokens prove "unchanged"
# here (a regular file's token promises every change), read by
# PREFIX "$tool"?
proves() {
	f=$1
	shift
	"$@" "$tool" --json --change-token "$f" 2>/dev/null |
		grep -q '"change_token":{[^}]*"every_change"'
}

# quiet PROVEN RC OUT DIR: a cycle of the unchanged tree DIR exited RC
# and printed OUT: nothing and 0 where the tokens prove (PROVEN not
# empty); else exit 1 and one "unproven" line for each of DIR's entries,
# no other verdict.
quiet() {
	if [ -n "$1" ]; then
		[ "$2" = 0 ] && [ ! -s "$3" ]
	else
		[ "$2" = 1 ] && ! grep -qv '^unproven ' "$3" &&
			[ "$(wc -l <"$3")" = "$(find "$4" -printf '.\n' | wc -l)" ]
	fi
}
