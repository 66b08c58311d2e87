# Shared by tests/kernel-deps.sh and tests/userspace-deps.sh (sourced):
# circle detection over "FROM TO" edge lines (one use or include a line).

# deps_loops EDGES: the loops tsort finds, members space-separated, loops
# separated by " | "; empty if none (tsort reports them on stderr)
deps_loops() {
	tsort <<< "$1" 2>&1 >/dev/null | sed 's/^tsort: //; s/^-: input contains a loop:$/|/' |
		tr '\n' ' ' | sed 's/^| //; s/ $//'
}

# deps_both EDGES: " A<->B" for every pair that uses each other directly
deps_both() {
	awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, a, " ");
		if (a[1] < a[2] && e[a[2] " " a[1]]) printf " %s<->%s", a[1], a[2] } }' <<< "$1"
}
