import sys
from pathlib import Path

# The helpers next to the tests (corpus.py), importable from every suite.
sys.path.insert(0, str(Path(__file__).resolve().parent))
