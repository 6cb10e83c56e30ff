#!/bin/sh
# docs/gallery/make.sh: render chosen fixtures to HTML and SVG with the
# tdperf of this tree and screenshot them with headless Chromium into
# docs/gallery/*.png, so the pictures in the README can be regenerated
# (and looked at) after any change to a page or chart.
#   docs/gallery/make.sh [TDPERF]      (default: ./tdperf)
# Needs chromium; the PNGs are kept small (a first screen each, < 300 KB).
set -eu

cd "$(dirname "$0")/../.."
td=${1:-./tdperf}
out=${GALLERY_OUT:-docs/gallery}
pub=tests/fixtures/perf-stat-published
work=$(mktemp -d "${TMPDIR:-/tmp}/tdperf-gallery.XXXXXX")
trap 'rm -rf "$work"' EXIT
CHROMIUM=${CHROMIUM:-chromium}

# shot PAGE PNG WIDTH HEIGHT: a screenshot of the top WIDTHxHEIGHT of PAGE
shot() {
	"$CHROMIUM" --headless=new --no-sandbox --disable-gpu --disable-background-networking \
		--hide-scrollbars --user-data-dir="$work/chromium" --window-size="$3,$4" \
		--screenshot="$2" "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" >/dev/null 2>&1
	echo "$2: $(wc -c <"$2") bytes"
}

# svg_page SVG HTML: an SVG on a white page, at its own size
svg_page() {
	{ echo '<!DOCTYPE html><html><body style="margin:0;background:#fff">'; cat "$1"; echo '</body></html>'; } >"$2"
}

# 1. a hybrid Alder Lake (4 runs): P-core and E-core side by side
"$td" report --html "$work/hybrid.html" "$pub/case-45-adl-acme-irogers-topdownL2-hybrid.txt" >/dev/null
shot "$work/hybrid.html" "$out/hybrid-summary.png" 1200 900

# 2. an interval run whose bottleneck changes: its phases on the summary
"$td" report --cpu icelakex --html "$work/phases.html" tests/fixtures/phases/fe-be-fe-I.csv >/dev/null
shot "$work/phases.html" "$out/phases-summary.png" 1200 760

# 3. perf printed Level 1 only (Neoverse V3): the Level-2 bar marks what was not measured
"$td" report --cpu neoverse-v3 --html "$work/partial.html" \
	"$pub/case-31-arm-v3ae-learningpath-default-metrics-only.txt" >/dev/null
shot "$work/partial.html" "$out/partial-stack.png" 1200 1000

# 4. a diff whose B side has Level 1 only: compare-l2.svg with B's not-measured part hatched
"$td" diff --plot "$work/diff" "$pub/case-23-cml-multidim-topdownL1-L2-L3.txt" \
	"$pub/case-05-skl-irogers-topdownL1-systemwide.txt" >/dev/null
svg_page "$work/diff/compare-l2.svg" "$work/compare-l2.html"
shot "$work/compare-l2.html" "$out/compare-l2.png" 1096 450

# 5. a Zen 4 run with a clear bottleneck path (the demo's fixture)
"$td" report --html "$work/zen4.html" "$pub/case-43-zen4-ckl-blog-pipelineL2-explicit.txt" >/dev/null
shot "$work/zen4.html" "$out/zen4-summary.png" 1200 700

# 6. the CPI change by component across two CPU generations (value labels clear of the axis)
"$td" diff --plot "$work/gen" tests/fixtures/perf-oracle/skylake/all.txt \
	tests/fixtures/perf-oracle/icelake/all.txt >/dev/null
svg_page "$work/gen/cpi-delta.svg" "$work/cpi-delta.html"
shot "$work/cpi-delta.html" "$out/cpi-delta.png" 1096 450
