# Sourced by .ci/run, .ci/cross, .ci/musl and .ci/sanitize for the builds
# of their own copies of the tree (never the README's commands nor
# dpkg-buildpackage's): make, with libtool's script run by dash where
# there is one.  configure has make run it by the shell it picked (bash
# on Debian), and libtool runs once for every object and every link: a
# large part of a build's processor time is that script starting.  It is
# POSIX sh, and dash starts it in about half the time.
ci_make() {
	if [ -x /bin/dash ]; then
		make LIBTOOL='/bin/dash $(top_builddir)/libtool' "$@"
	else
		make "$@"
	fi
}
