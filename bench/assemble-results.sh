#!/usr/bin/env bash
# Builds bench/RESULTS.md from the summary below and every bench/results/*.md (one per part,
# each with its commands, machine and load). Run after updating any of them.
set -euo pipefail
cd "$(dirname "$0")"
{
    cat results/SUMMARY.md
    for part in infra config dns pools pva-client pva-server status-pvs console; do
        f=results/$part.md
        [[ -f $f ]] || continue
        printf '\n---\n\n<!-- from bench/%s -->\n' "$f"
        # demote the part's headings one level under this file's title
        sed -E 's/^(#+) /\1# /' "$f"
    done
} > RESULTS.md
echo "bench/RESULTS.md: $(wc -l < RESULTS.md) lines"
