"""Every test process, and every child it starts, keeps the knowledge snapshot (advisor/snapshot.py)
in a fresh folder of its own: nothing is read from or written to the user's cache folder."""

import atexit
import os
import shutil
import tempfile

os.environ["GPU_ADVISOR_CACHE"] = tempfile.mkdtemp(prefix="gpu-advisor-cache-")
atexit.register(shutil.rmtree, os.environ["GPU_ADVISOR_CACHE"], ignore_errors=True)
