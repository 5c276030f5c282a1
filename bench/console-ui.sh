#!/bin/sh
# UI benchmark of the console (issue 7): 20 000 servers and 100 000 channels, snapshot → frame.
# Usage (from the repository root): bench/console-ui.sh [seconds]   (default 60)
# Runs the real window under Xvfb (software rendering), the PVA pane on screen.
set -e
SECONDS_TO_RUN=${1:-60}
mvn -B -q -pl console-app -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$PWD/console-app/target/bench-cp.txt" -Dmdep.includeScope=test
CP="console-app/target/classes:console-app/target/test-classes:$(cat console-app/target/bench-cp.txt)"
exec xvfb-run -a -s "-screen 0 1440x900x24" java -Xmx1g -cp "$CP" lookout.console.bench.ConsoleUiBench "$SECONDS_TO_RUN"
