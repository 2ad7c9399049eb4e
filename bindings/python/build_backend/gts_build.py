"""A minimal PEP 517 / PEP 660 build backend for the gts package, using the
Python standard library only.

Why: installing must work offline. setuptools cannot build a wheel without
the separate `wheel` package, and pip's build isolation would download
both. This backend needs nothing (``requires = []`` in pyproject.toml), so
``pip install ./bindings/python`` works with or without build isolation.

It packs the pure-Python package ``gts/`` into a ``py3-none-any`` wheel,
an sdist of this directory, or an editable wheel (a .pth file pointing
here). Metadata comes from the [project] table of pyproject.toml.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "gts"
SDIST_DIRS = ("gts", "build_backend", "tests", "examples")
SDIST_FILES = ("pyproject.toml", "README.md")


# ---- metadata ----------------------------------------------------------------------

def _project():
    path = os.path.join(HERE, "pyproject.toml")
    try:
        import tomllib
    except ImportError:  # Python < 3.11: the simple string keys are enough
        tomllib = None
    if tomllib is not None:
        with open(path, "rb") as f:
            return tomllib.load(f)["project"]
    proj, section = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\[(.+)\]\s*$", line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*"([^"]*)"\s*$', line)
            if section == "project" and m:
                proj[m.group(1)] = m.group(2)
    return proj


def _metadata():
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + p["name"],
        "Version: " + p["version"],
    ]
    if p.get("description"):
        lines.append("Summary: " + p["description"])
    if p.get("requires-python"):
        lines.append("Requires-Python: " + p["requires-python"])
    lic = p.get("license")
    if isinstance(lic, dict) and lic.get("text"):
        lines.append("License: " + lic["text"])
    if p.get("keywords"):
        lines.append("Keywords: " + ",".join(p["keywords"]))
    for c in p.get("classifiers", []):
        lines.append("Classifier: " + c)
    for d in p.get("dependencies", []):
        lines.append("Requires-Dist: " + d)
    readme = p.get("readme")
    body = ""
    if isinstance(readme, str) and os.path.isfile(os.path.join(HERE, readme)):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, readme), encoding="utf-8") as f:
            body = f.read()
    return p["name"], p["version"], "\n".join(lines) + "\n\n" + body


def _dist_info(name, version):
    return f"{name}-{version}.dist-info"


WHEEL_FILE = "Wheel-Version: 1.0\nGenerator: gts_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


# ---- wheels ------------------------------------------------------------------------

def _package_files():
    out = []
    root = os.path.join(HERE, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith((".py", ".pyi", ".typed")):   # sources, stubs, PEP 561 marker
                full = os.path.join(dirpath, fn)
                out.append((os.path.relpath(full, HERE).replace(os.sep, "/"), full))
    return out


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, entries):
    """entries: list of (arcname, bytes). Adds dist-info files and RECORD."""
    name, version, metadata = _metadata()
    di = _dist_info(name, version)
    entries = list(entries) + [(f"{di}/METADATA", metadata.encode("utf-8")),
                               (f"{di}/WHEEL", WHEEL_FILE.encode())]
    record = [_record_line(a, d) for a, d in entries] + [f"{di}/RECORD,,"]
    entries.append((f"{di}/RECORD", ("\n".join(record) + "\n").encode()))
    wheel_name = f"{name}-{version}-py3-none-any.whl"
    os.makedirs(wheel_directory, exist_ok=True)
    stamp = time.localtime(max(time.time(), 315532800))[:6]
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                         zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in entries:
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return wheel_name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = []
    for arcname, full in _package_files():
        with open(full, "rb") as f:
            entries.append((arcname, f.read()))
    return _write_wheel(wheel_directory, entries)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    name, version, _ = _metadata()
    pth = (HERE + "\n").encode()
    return _write_wheel(wheel_directory, [(f"__editable__.{name}-{version}.pth", pth)])


def _prepare_metadata(metadata_directory):
    name, version, metadata = _metadata()
    di = os.path.join(metadata_directory, _dist_info(name, version))
    os.makedirs(di, exist_ok=True)
    with open(os.path.join(di, "METADATA"), "w", encoding="utf-8") as f:
        f.write(metadata)
    with open(os.path.join(di, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(WHEEL_FILE)
    return os.path.basename(di)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _prepare_metadata(metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return _prepare_metadata(metadata_directory)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


# ---- sdist -------------------------------------------------------------------------

def build_sdist(sdist_directory, config_settings=None):
    name, version, metadata = _metadata()
    base = f"{name}-{version}"
    os.makedirs(sdist_directory, exist_ok=True)
    path = os.path.join(sdist_directory, base + ".tar.gz")

    def skip(info):
        parts = info.name.split("/")
        if "__pycache__" in parts or info.name.endswith(".pyc"):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tf:
        for fn in SDIST_FILES:
            if os.path.exists(os.path.join(HERE, fn)):
                tf.add(os.path.join(HERE, fn), f"{base}/{fn}", filter=skip)
        for d in SDIST_DIRS:
            if os.path.isdir(os.path.join(HERE, d)):
                tf.add(os.path.join(HERE, d), f"{base}/{d}", filter=skip)
        data = metadata.encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        info.mtime = int(time.time())
        info.mode = 0o644
        tf.addfile(info, io.BytesIO(data))
    return os.path.basename(path)
