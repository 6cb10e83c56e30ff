# Encoding perf event terms into perf_event_attr config words with a
# PMU's format/ definitions, as perf does; shared by emu-truth and
# profile-rates.  The caller fills fmt[PMU, TERM] ("config:0-7,32-35") and
# alias_of[PMU, ALIAS] (events/ files) from a CPU description.
function hex(s,    v, i, c) {
	s = tolower(s); sub(/^0x/, "", s); v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		if (c < 0) return -1
		v = v * 16 + c
	}
	return v
}
function num(s) { return s ~ /^0x/ ? hex(s) : s + 0 }
# Scatter value v into the bit ranges of format spec "config:0-7,32-35".
function place(pmu, term, v,    spec, word, ranges, n, i, lo, hi, r, w, bit) {
	spec = fmt[pmu, term]
	if (spec == "") return 0
	word = substr(spec, 1, index(spec, ":") - 1)
	n = split(substr(spec, index(spec, ":") + 1), ranges, ",")
	for (i = 1; i <= n; i++) {
		split(ranges[i], r, "-"); lo = r[1] + 0; hi = (r[2] == "" ? lo : r[2] + 0)
		w = hi - lo + 1
		bit = v % (2 ^ w); v = int(v / (2 ^ w))
		acc[word] += bit * 2 ^ lo
	}
	return 1
}
function encode(pmu, terms,    t, n, i, kv, alias) {
	acc["config"] = 0; acc["config1"] = 0; acc["config2"] = 0
	n = split(terms, t, ",")
	for (i = 1; i <= n; i++) {
		if (index(t[i], "=")) {
			split(t[i], kv, "=")
			if (kv[1] != "name") place(pmu, kv[1], num(kv[2]))
		} else if ((pmu, t[i]) in alias_of) {
			encode_alias(pmu, alias_of[pmu, t[i]])
		}
	}
	return sprintf("%s %.0f %.0f", pmu, acc["config"], acc["config1"])
}
function encode_alias(pmu, terms,    t, n, i, kv) {
	n = split(terms, t, ",")
	for (i = 1; i <= n; i++) {
		split(t[i], kv, "=")
		place(pmu, kv[1], kv[2] == "" ? 1 : num(kv[2]))
	}
}
# Read the format/ and events/ lines of every PMU of a CPU description.
function load_cpu(path,    line, f, pmu) {
	while ((getline line < path) > 0) {
		split(line, f, " ")
		if (f[1] == "pmu") { pmu = f[2]; pmus[++npmus] = pmu; continue }
		if (line !~ /^[ \t]/) { pmu = ""; continue }
		if (pmu != "" && f[1] == "format") fmt[pmu, f[2]] = f[3]
		if (pmu != "" && f[1] == "event") alias_of[pmu, f[2]] = f[3]
		if (pmu != "" && f[1] == "metric") is_metric[pmu, hex(f[2])] = 1
		if (pmu != "" && f[1] == "rate") rate_of[pmu, hex(f[2])] = f[3]
		if (pmu != "" && f[1] == "slots") slots_of[pmu] = f[2]
		if (pmu != "" && f[1] == "hw" && f[2] == "0") cycles_of[pmu] = f[3]
		if (pmu != "" && f[1] == "hw") { hw_of[pmu, f[2]] = f[3]; if (!(pmu in has_hw)) { has_hw[pmu] = 1; nhw_pmus++; hw_pmu = pmu } }
	}
	close(path)
}
