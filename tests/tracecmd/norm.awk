# Normalize `logdev report --raw` (mode=logdev) or `trace-cmd report -t`
# (mode=tc, with the `trace-cmd report -R` of the same file as file=RAWFILE
# for the site ids; run with -f tcline.awk first, which reads trace-cmd's
# lines by their structure, whatever its version) into one form, so that
# the two compare line for line:
#   R ts_ns cpu pid site msg        (msg terminal-safe as logdev prints it:
#                                    convert's msg field is report's escaped
#                                    text, lgd_escape(), so both sides carry
#                                    the same \\ \t \n \0 \xHH)
#   D cpu count|?                   (lost events, just before the next record
#                                    of that CPU, as trace-cmd prints them;
#                                    logdev's LOST lines of one CPU before one
#                                    record add up; subbufs/corrupt: ?)
function esc(s,   o, c, i) {
	o = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		o = o (c == "\\" ? "\\\\" : c == "\t" ? "\\t" : c)
	}
	return o
}
function flush_rec() {
	if (have)
		print pend
	have = 0
}
mode == "logdev" {
	FS = "\t"
	n = split($0, f, "\t")
	if (f[1] == "LOST") {
		if (f[4] == "subbufs" || f[4] == "corrupt" || lost[f[2]] == "?")
			lost[f[2]] = "?"
		else
			lost[f[2]] += f[3]
		next
	}
	# a task-name record (report --raw: site 0, func "<comm>") is no event:
	# it becomes the file's cmdlines
	if (f[5] == "0" && f[6] == "<comm>")
		next
	msg = f[8]
	for (i = 9; i <= n; i++)
		msg = msg "\t" f[i]
	if (f[2] in lost) {
		print "D " f[2] " " lost[f[2]]
		delete lost[f[2]]
	}
	print "R " f[1] " " f[2] " " f[3] " " f[5] " " msg
	next
}
mode == "tc" {
	if (FNR == 1 && !loaded) {
		while ((getline l < file) > 0)
			if (tc_parse(l)) {
				site = "?"
				if (match(tc_text, /^ *site=[0-9]+ file=/)) {
					site = substr(tc_text, 1, RLENGTH - 6)
					sub(/^ *site=/, "", site)
				}
				sites[++ns] = site
			}
		loaded = 1
	}
	if ($0 ~ /^cpus=[0-9]+$/)
		next
	if (tc_dropped($0)) {
		flush_rec()
		print "D " tc_cpu " " tc_count
		next
	}
	if (!tc_parse($0)) {		# a raw newline in a message: never, it is \n
		if (have)
			pend = pend "\\n" esc($0)
		else
			print "? " $0
		next
	}
	flush_rec()
	split(tc_ts, t, ".")
	pend = "R " tc_nodz(t[1] t[2]) " " tc_cpu " " tc_pid " " sites[++nr] " " tc_text
	have = 1
	next
}
END { if (mode == "tc") flush_rec() }
