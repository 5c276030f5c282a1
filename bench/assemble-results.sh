#!/usr/bin/env bash
# Builds bench/RESULTS.md from results/SUMMARY.md and every bench/results/*.md (one per part,
# each with its commands, machine and load; round-2026-12.md holds the sessions of the round that
# measured several parts at once). Edit those files, not RESULTS.md, then run this.
set -euo pipefail
cd "$(dirname "$0")"
{
    cat results/SUMMARY.md
    for part in round-2026-12 infra config dns pools pva-client pva-server status-pvs console; do
        f=results/$part.md
        [[ -f $f ]] || continue
        printf '\n---\n\n<!-- from bench/%s -->\n' "$f"
        # demote the part's headings one level under this file's title
        sed -E 's/^(#+) /\1# /' "$f"
    done
} > RESULTS.md
echo "bench/RESULTS.md: $(wc -l < RESULTS.md) lines"
