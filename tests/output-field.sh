# Sourced by the tests of the example programs, which print one
# "NAME: value" line each.
# field NAME OUTPUT: the value printed after "NAME: ".
field() {
	while IFS= read -r line; do
		case $line in
		"$1: "*) printf '%s\n' "${line#"$1: "}" ;;
		esac
	done <<EOF
$2
EOF
}
