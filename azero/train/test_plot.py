"""Tests for the learning-curve plot (plot.py): both kinds of CSV become a PNG."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import plot  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class TestPlot(unittest.TestCase):
    def draw(self, text):
        d = tempfile.mkdtemp()
        csv_path, png = os.path.join(d, "curve.csv"), os.path.join(d, "curve.png")
        with open(csv_path, "w") as f:
            f.write(text)
        self.assertEqual(plot.main(["plot.py", csv_path, png]), 0)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), PNG_MAGIC)

    def test_iterations(self):
        self.draw("iteration,random,greedy,alphabeta-d1\n2,50.0,10.0,\n4,75.0,20.0,5.0\n")

    def test_rounds(self):
        self.draw("round,network,games,cpu_hours,promoted,random,alphabeta-d2,alphabeta-d3\n"
                  "0,round-000/network.onnx,0,0.010,true,,46.7,35.0\n"
                  "1,round-001/network.onnx,20743,2.400,true,,56.0,40.0\n"
                  "2,round-002/network.onnx,43808,4.900,false,,55.0,38.0\n")

    def test_rounds_without_hours(self):
        self.draw("round,network,games,cpu_hours,promoted,alphabeta-d2,alphabeta-d3\n"
                  "0,n4x32-ft,0,,true,46.7,35.0\n"
                  "1,w5,20743,,true,56.0,40.0\n")

    def test_no_rows(self):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "empty.csv")
        with open(path, "w") as f:
            f.write("round,network,games,cpu_hours,promoted,random\n")
        self.assertEqual(plot.main(["plot.py", path, os.path.join(d, "x.png")]), 2)


if __name__ == "__main__":
    unittest.main()
