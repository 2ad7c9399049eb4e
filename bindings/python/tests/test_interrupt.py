"""Ctrl-C (SIGINT) during a search (issue 11, 2.1): the search stops, every
state is restored, and the interrupt reaches the program afterwards, every
time. Each scenario runs in a child process (sigint_child.py), so that a
lost or misplaced KeyboardInterrupt fails the test instead of the runner."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class TestSigint(unittest.TestCase):
    def run_child(self, scenario, runs):
        p = subprocess.run([sys.executable, os.path.join(HERE, "sigint_child.py"), scenario,
                            str(runs)], capture_output=True, text=True, timeout=300, cwd=HERE)
        self.assertEqual((p.returncode, p.stdout.strip().splitlines()[-1:]), (0, ["ok"]),
                         f"{scenario}:\n{p.stdout}\n{p.stderr}")

    def test_python_game_serial(self):
        """The reproducer of the issue, 60 times with varied timer delays."""
        self.run_child("python_serial", 60)

    def test_python_game_parallel(self):
        self.run_child("python_parallel", 12)

    def test_c_game(self):
        """No Python runs in the searching thread: the stop must still be prompt."""
        self.run_child("c_game", 6)

    def test_program_handler(self):
        """A program's own handler runs once, after the search, state restored."""
        self.run_child("custom_handler", 5)

    def test_nested_search(self):
        self.run_child("nested", 6)

    def test_search_in_another_thread(self):
        self.run_child("other_thread", 4)

    def test_probcut_calibration(self):
        self.run_child("calibrate", 3)


if __name__ == "__main__":
    unittest.main()
