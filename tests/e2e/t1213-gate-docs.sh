#!/bin/sh
# docs/ci.md: its GitHub Actions and GitLab CI jobs are valid YAML with the
# keys those services read (and they run the gate and keep its JUnit XML);
# diff --help, the man page and the README describe the gate's options.
. "$(dirname "$0")/test-lib.sh"

PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import yaml' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	test_skip 'docs/ci.md YAML' 'python3-yaml is not installed (scripts/bootstrap installs it)'
	test_done
fi

test_expect_success 'docs/ci.md: a GitHub Actions and a GitLab CI job, valid YAML, running the gate' '
	cat >ci.py <<-PYEOF &&
	import re, sys, yaml
	text = open(sys.argv[1]).read()
	blocks = re.findall(r"\`\`\`yaml\n(.*?)\`\`\`", text, re.S)
	assert len(blocks) == 2, len(blocks)
	gh, gl = (yaml.safe_load(b) for b in blocks)
	# GitHub Actions: "on" (YAML 1.1 reads the bare key as true), jobs with runs-on and steps
	assert gh.get("on", gh.get(True)) == ["pull_request"]
	job = gh["jobs"]["gate"]
	assert job["runs-on"] and isinstance(job["steps"], list)
	for s in job["steps"]:
	    assert ("run" in s) != ("uses" in s), s
	runs = " ".join(s.get("run", "") for s in job["steps"])
	assert "tdperf diff --check" in runs and "--junit gate.xml" in runs and "tdperf record -r" in runs
	assert any(s.get("uses", "").startswith("actions/upload-artifact") and s.get("if") == "always()"
	           for s in job["steps"])
	# GitLab CI: a job with script, artifacts:reports:junit
	job = gl["perf-gate"]
	assert isinstance(job["script"], list) and job["stage"] == "test"
	assert any("tdperf diff --check" in l and "--junit gate.xml" in l for l in job["script"])
	assert job["artifacts"]["reports"]["junit"] == "gate.xml" and job["artifacts"]["when"] == "always"
	print("ci.md ok")
	PYEOF
	"$PY" ci.py "$TD_SRCDIR/docs/ci.md"
'

test_expect_success 'diff --help, man page and README describe --check, --fail-on, --junit, --confidence' '
	"$TDPERF" diff --help >help &&
	for o in --check --fail-on --junit --confidence; do
		test_grep -e "$o" help &&
		test_grep -e "\\\\-\\\\-${o#--}" "$TD_SRCDIR/man/tdperf.1" ||
		test_grep -e "$(echo "$o" | sed "s/-/\\\\\\\\-/g")" "$TD_SRCDIR/man/tdperf.1" || exit 1
	done &&
	test_grep "tdperf diff --check" "$TD_SRCDIR/README.md" &&
	test_grep "docs/ci.md" "$TD_SRCDIR/README.md"
'

test_done
