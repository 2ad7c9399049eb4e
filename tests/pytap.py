"""The command-line test scripts' shared runner: unittest, or with --tap a
TAP stream (one line a test, a failed subtest its own line, diagnostics as
comments). Use: ``sys.exit(pytap.main(sys.modules[__name__], GTS))``."""
import os
import sys
import unittest


class TapResult(unittest.TextTestResult):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.n = 0

    def _line(self, ok, test, extra=""):
        self.n += 1
        self.stream.write(f"{'ok' if ok else 'not ok'} {self.n} {test.id()}{extra}\n")
        self.stream.flush()

    def _diag(self, test, err):
        for line in self._exc_info_to_string(err, test).splitlines():
            self.stream.write(f"# {line}\n")

    def addSuccess(self, test):
        super(unittest.TextTestResult, self).addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super(unittest.TextTestResult, self).addFailure(test, err)
        self._line(False, test)
        self._diag(test, err)

    def addError(self, test, err):
        super(unittest.TextTestResult, self).addError(test, err)
        self._line(False, test)
        self._diag(test, err)

    def addSkip(self, test, reason):
        super(unittest.TextTestResult, self).addSkip(test, reason)
        self._line(True, test, f" # SKIP {reason}")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            super().addSubTest(test, subtest, err)
            self._line(False, subtest)
            self._diag(test, err)


def main(module, tool):
    """Run @module's tests; 1 at once when the @tool executable is missing."""
    if not os.access(tool, os.X_OK):
        print(f"gts tool not found at {tool} (set GTS_TOOL)", file=sys.stderr)
        return 1
    if "--tap" in sys.argv:
        sys.argv.remove("--tap")
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        print(f"1..{suite.countTestCases()}")
        runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=TapResult, verbosity=0)
        return 0 if runner.run(suite).wasSuccessful() else 1
    prog = unittest.main(module=module, exit=False, verbosity=2)
    return 0 if prog.result.wasSuccessful() else 1
