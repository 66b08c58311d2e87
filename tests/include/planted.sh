# tests/include/planted.sh: the one verdict of the host checks' self-tests
# (size-check, artefact-check, doc-links, userspace-deps): each plants faults
# in a copy, runs itself on the copy, and asks planted_found whether every
# planted fault was reported.  Sourced, bash.
#
# planted_found LABEL OUT PREFIX WANT...: for each WANT, a PASS line if OUT
# (the check's output on the copy) has a line that starts with PREFIX WANT
# (both taken literally; with PREFIX empty: a line that contains WANT), else
# a FAIL line quoting the check's first FAIL lines.  LABEL names the
# self-test ("size-check self-test").  Returns 1 if any WANT was missing.
planted_found() {
	local label=$1 out=$2 prefix=$3 want line hit rc=0
	shift 3
	for want in "$@"; do
		hit=
		while IFS= read -r line; do
			if [ -n "$prefix" ]; then
				[[ $line == "$prefix$want"* ]] && hit=1
			else
				[[ $line == *"$want"* ]] && hit=1
			fi
		done <<<"$out"
		if [ -n "$hit" ]; then
			echo "PASS: $label: a planted fault fails the check ($want)"
		else
			echo "FAIL: $label: planted fault not found ($want); the check said: $(grep '^FAIL' <<<"$out" | head -n 8 | tr '\n' '|')"
			rc=1
		fi
	done
	return $rc
}
