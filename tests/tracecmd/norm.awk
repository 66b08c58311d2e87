# Normalize `logdev report --raw` (mode=logdev) or `trace-cmd report -t`
# (mode=tc, with the `trace-cmd report -R` of the same file as file=RAWFILE
# for the site ids) into one form, so that the two compare line for line:
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
function nodz(s) { sub(/^0+/, "", s); return s == "" ? "0" : s }
function flush_rec() {
	if (have)
		print pend
	have = 0
}
BEGIN { hdr = "^ *[^ ].*-[0-9]+ +\\[[0-9]+\\] +[0-9]+\\.[0-9]+: " }
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
			if (l ~ hdr) {
				site = "?"
				if (match(l, / site=[0-9]+ file=/))
					site = substr(l, RSTART + 6, RLENGTH - 12)
				sites[++ns] = site
			}
		loaded = 1
	}
	if ($0 ~ /^cpus=[0-9]+$/)
		next
	if (match($0, /^CPU:[0-9]+ \[[0-9]+ EVENTS DROPPED\]$/)) {
		flush_rec()
		split($0, a, /[:[ ]/)
		print "D " a[2] " " a[4]
		next
	}
	if (match($0, /^CPU:[0-9]+ \[EVENTS DROPPED\]$/)) {
		flush_rec()
		split($0, a, /[:[ ]/)
		print "D " a[2] " ?"
		next
	}
	if (!match($0, hdr)) {		# a raw newline in a message: never, it is \n
		if (have)
			pend = pend "\\n" esc($0)
		else
			print "? " $0
		next
	}
	flush_rec()
	head = substr($0, 1, RLENGTH)
	rest = substr($0, RLENGTH + 1)
	match(head, /-[0-9]+ +\[/)
	pid = substr(head, RSTART + 1, RLENGTH - 1)
	sub(/ +\[$/, "", pid)
	match(head, /\[[0-9]+\]/)
	cpu = nodz(substr(head, RSTART + 1, RLENGTH - 2))
	match(head, /[0-9]+\.[0-9]+: $/)
	ts = substr(head, RSTART, RLENGTH - 2)
	split(ts, t, ".")
	ts = nodz(t[1] t[2])
	i = index(rest, ":")
	name = substr(rest, 1, i - 1)
	msg = substr(rest, i + 1)
	pad = 21 - (length(name) + 1)	# trace-cmd pads "name:" to 21, then " "
	if (pad < 0)
		pad = 0
	msg = substr(msg, pad + 2)
	pend = "R " ts " " cpu " " pid " " sites[++nr] " " msg
	have = 1
	next
}
END { if (mode == "tc") flush_rec() }
