#!/usr/bin/env python3
"""Counts and checks the JUnit results in Surefire's XML reports (scripts/test.sh).

  skips.py counts [REPORT ...]            prints 'PASSED FAILED SKIPPED'
  skips.py check ALLOW_FILE [REPORT ...]  lists every skipped test; exits 1 when one of them is
                                          not on ALLOW_FILE, 2 when ALLOW_FILE is malformed

REPORT defaults to */target/surefire-reports/TEST-*.xml (from the repository root).

Counts come from the <testcase> elements, not from the <testsuite> totals: Surefire's totals are
wrong for a class run by two engines (JUnit Jupiter and jqwik: 79 test cases, tests="2") and for
classes with nested or parameterized tests (tests="0"). A test case with <failure> or <error> has
failed, one with <skipped> was skipped (its message is the attribute, or the first line of the
exception Surefire wrote), the rest passed. A report without any test case is a class skipped as
a whole before any test started (an assumption in @BeforeAll): Surefire records no reason for it;
it counts as one skipped test, named by the class alone.

ALLOW_FILE: one entry a line, 'fully.qualified.ClassName#methodName  reason' or
'fully.qualified.ClassName  reason' (the whole class, its nested classes included); the reason is
required; '#' starts a comment at the start of a line or after whitespace. A method entry covers
every invocation of a parameterized or repeated method (name up to its '(' or '[').
"""
import glob
import re
import sys
import xml.etree.ElementTree as ET

DEFAULT_REPORTS = '*/target/surefire-reports/TEST-*.xml'


def test_cases(paths):
    """Yields (class, method, outcome, message) for every test case; outcome pass/fail/skip."""
    for path in sorted(paths):
        try:
            suite = ET.parse(path).getroot()
        except (ET.ParseError, OSError) as e:
            yield (path, '', 'fail', 'unreadable report: %s' % e)
            continue
        suite_name = suite.get('name', '')
        cases = suite.findall('testcase')
        if not cases:
            yield (suite_name, '', 'skip', 'no test of this class ran (skipped as a whole; no reason recorded)')
            continue
        for case in cases:
            cls = case.get('classname', '') or suite_name
            # jqwik reports the simple class name; the suite is named by the fully qualified one
            if '.' not in cls and (suite_name == cls or suite_name.endswith('.' + cls)):
                cls = suite_name
            name = case.get('name', '')
            if case.find('failure') is not None or case.find('error') is not None:
                yield (cls, name, 'fail', '')
            elif case.find('skipped') is not None:
                yield (cls, name, 'skip', skip_message(case.find('skipped')))
            else:
                yield (cls, name, 'pass', '')


def skip_message(element):
    message = element.get('message')
    if message:
        return message
    text = (element.text or '').strip()
    first = text.splitlines()[0] if text else ''
    # 'org.opentest4j.TestAbortedException: Assumption failed: no ::1 here' -> after the type
    m = re.match(r'^[\w.$]+(?:Exception|Error)(?::\s*(.*))?$', first)
    if m:
        return m.group(1) or first
    return first or '(no message)'


def read_allow_list(path):
    """Returns ({class: reason}, {(class, method): reason}, [problems])."""
    classes, methods, problems = {}, {}, []
    with open(path, encoding='utf-8') as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            line = re.sub(r'\s#.*$', '', line).strip()  # 'Class#method' has no blank before its '#'
            parts = line.split(None, 1)
            target = parts[0]
            reason = parts[1].strip() if len(parts) > 1 else ''
            if not reason:
                problems.append('%s:%d: "%s" has no reason; every entry needs one' % (path, number, target))
                continue
            if '#' in target:
                cls, method = target.split('#', 1)
                if not cls or not method:
                    problems.append('%s:%d: "%s" is not ClassName#methodName' % (path, number, target))
                    continue
                methods[(cls, method)] = reason
            else:
                classes[target] = reason
    return classes, methods, problems


def allowed(cls, name, classes, methods):
    """The reason the skip of cls#name is allowed, or None."""
    outer = cls.split('$', 1)[0]
    for c in (cls, outer):
        if c in classes:
            return classes[c]
    method = re.split(r'[(\[]', name, 1)[0]
    for c in (cls, outer):
        if (c, method) in methods:
            return methods[(c, method)]
    return None


def main(argv):
    if len(argv) < 2 or argv[1] not in ('counts', 'check') or (argv[1] == 'check' and len(argv) < 3):
        print(__doc__, file=sys.stderr)
        return 2
    command = argv[1]
    patterns = argv[3:] if command == 'check' else argv[2:]
    paths = []
    for p in patterns or [DEFAULT_REPORTS]:
        paths.extend(glob.glob(p))
    cases = list(test_cases(paths))
    if command == 'counts':
        print(sum(c[2] == 'pass' for c in cases), sum(c[2] == 'fail' for c in cases),
              sum(c[2] == 'skip' for c in cases))
        return 0

    try:
        classes, methods, problems = read_allow_list(argv[2])
    except OSError as e:
        print('skip check: cannot read the allow-list: %s' % e)
        return 2
    for p in problems:
        print('skip check: ' + p)
    unexpected = 0
    for cls, name, outcome, message in cases:
        if outcome != 'skip':
            continue
        test = cls + ('#' + name if name else '')
        reason = allowed(cls, name, classes, methods)
        if reason is None:
            unexpected += 1
            print('skip check: UNEXPECTED skip %s: %s' % (test, message))
        else:
            print('skip check: allowed skip %s: %s (allowed: %s)' % (test, message, reason))
    if problems:
        return 2
    if unexpected:
        print('skip check: %d skipped test(s) not on %s' % (unexpected, argv[2]))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
