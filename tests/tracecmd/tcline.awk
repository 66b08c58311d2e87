# tcline.awk: the lines of `trace-cmd report` read by their structure, the
# same way for every trace-cmd (used as `awk -f tcline.awk -f PROGRAM`):
#
#   [FILE: ]COMM-PID [CPU][FLAGS] TIME: EVENT: TEXT
#
#   trace-cmd 3.1      "    comm-12    [001]     1.000002: name:  TEXT"
#   trace-cmd 3.3, 3.4 "    comm-12    [001] d.h1.     1.000002: name:  TEXT"
#                      (the latency flags column; with -R "[001]-0x9")
#   -l (any)           "  comm-12      1d.h1.     1.000002: name:  TEXT"
#                      (comm cut to 8, CPU and flags in one word)
#   -t                 the time in ns: "1.000002345"
#   several -i files   "FILE: " first, FILE right-aligned to the longest name
#                      (set tc_files = 1); the event line that follows an
#                      EVENTS DROPPED line has none, it is that line's file
#   EVENT is padded with spaces to 20 characters, then TEXT as printed.
#
#   tc_parse(LINE)     1 for an event line, setting tc_file (with tc_files),
#                      tc_comm, tc_pid, tc_cpu (a number: "1", not "001"),
#                      tc_flags ("" on 3.1, "d.h1.", "0x9" for -R's),
#                      tc_ts (as printed, "1.000002"), tc_event, tc_text;
#                      else 0
#   tc_dropped(LINE)   1 for "CPU:N [COUNT EVENTS DROPPED]" or "CPU:N
#                      [EVENTS DROPPED]", setting tc_file, tc_cpu and
#                      tc_count (the number, or "?"); else 0
#   tc_nodz(S)         S without leading zeros ("000" -> "0")
#
# A COMM that itself contains "-PID [CPU] TIME: " is read wrong (trace-cmd's
# text has no delimiter that a task name cannot hold); the tests' files have
# none.

function tc_nodz(s) { sub(/^0+/, "", s); return s == "" ? "0" : s }

# "-PID CPU-and-flags TIME: ", the part of an event line after COMM
function tc_hdr() {
	return "-[0-9]+ +(\\[[0-9]+\\]( [^ ]+|-0x[0-9a-fA-F]+)?|[0-9]+[^ 0-9][^ ]*) +[0-9]+(\\.[0-9]+)?: "
}

# split "FILE: REST" when reading several files; REST returned
function tc_split_file(line,   i) {
	if (!tc_files)
		return line
	i = index(line, ": ")
	if (i == 0 || match(substr(line, 1, i + 1), tc_hdr())) {
		tc_file = tc_pending_file
		return line
	}
	tc_file = substr(line, 1, i - 1)
	sub(/^ +/, "", tc_file)
	return substr(line, i + 2)
}

function tc_dropped(line,   rest, a) {
	tc_file = ""
	rest = tc_split_file(line)
	if (rest ~ /^CPU:[0-9]+ \[[0-9]+ EVENTS DROPPED\]$/) {
		split(rest, a, /[:[ ]/)
		tc_cpu = a[2]
		tc_count = a[4]
	} else if (rest ~ /^CPU:[0-9]+ \[EVENTS DROPPED\]$/) {
		split(rest, a, /[:[ ]/)
		tc_cpu = a[2]
		tc_count = "?"
	} else
		return 0
	tc_pending_file = tc_file
	return 1
}

function tc_parse(line,   head, rest, cw, i, pad) {
	tc_file = tc_comm = tc_pid = tc_cpu = tc_flags = tc_ts = tc_event = tc_text = ""
	line = tc_split_file(line)
	tc_pending_file = ""
	# the first "-PID CPU-part TIME: " of the line
	if (!match(line, tc_hdr()))
		return 0
	tc_comm = substr(line, 1, RSTART - 1)
	sub(/^ +/, "", tc_comm)
	head = substr(line, RSTART + 1, RLENGTH - 1)
	rest = substr(line, RSTART + RLENGTH)
	match(head, /^[0-9]+/)
	tc_pid = substr(head, 1, RLENGTH)
	head = substr(head, RLENGTH + 1)
	sub(/^ +/, "", head)
	if (substr(head, 1, 1) == "[") {
		i = index(head, "]")
		tc_cpu = tc_nodz(substr(head, 2, i - 2))
		head = substr(head, i + 1)
		if (substr(head, 1, 1) == "-")
			head = substr(head, 2)		# -R: "-0x9"
		else
			sub(/^ /, "", head)
	} else {
		match(head, /^[0-9]+/)			# -l: "1d.h1."
		tc_cpu = tc_nodz(substr(head, 1, RLENGTH))
		head = substr(head, RLENGTH + 1)
	}
	i = index(head, " ")
	if (i == 1)
		tc_flags = ""
	else {
		tc_flags = substr(head, 1, i - 1)
		head = substr(head, i)
	}
	sub(/^ +/, "", head)
	tc_ts = substr(head, 1, length(head) - 2)	# "1.000002: "
	i = index(rest, ":")
	if (i == 0)
		return 0
	tc_event = substr(rest, 1, i - 1)
	tc_text = substr(rest, i + 2)
	pad = 20 - length(tc_event)
	if (pad > 0 && substr(tc_text, 1, pad) ~ /^ *$/)
		tc_text = substr(tc_text, pad + 1)
	return 1
}
