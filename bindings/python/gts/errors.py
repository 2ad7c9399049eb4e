"""Status codes of libgts as Python exceptions.

Every negative ``gts_status`` becomes a subclass of :class:`GtsError`,
generated at import time from the library's own list (``gts_status_name``
over the code range), so a status added to the C library appears here
without a binding change. Well-known codes get readable class names and a
matching built-in base (``InvalidArgument`` is also a ``ValueError``,
``OutOfMemory`` a ``MemoryError``...); a code this binding has never heard
of is named after its C name (``EFOO`` -> ``FooError``).

``str(error)`` is ``"<message> [<NAME>]"`` with the message of
``gts_strerror`` plus any detail the binding knows.
"""
from __future__ import annotations

from typing import Dict, Optional, Type

from . import _lib

__all__ = ["GtsError", "error_class", "raise_for_status", "STATUS_NAMES"]  # + generated


class GtsError(Exception):
    """A libgts call failed. ``status`` is the negative code, ``name`` its C
    name without the prefix (``"EINVAL"``), ``message`` the library's text."""

    status: int = 0
    name: str = ""

    def __init__(self, message: Optional[str] = None, *, status: Optional[int] = None,
                 detail: Optional[str] = None):
        if status is not None:
            self.status = status
            self.name = _lib.decode(_lib.lib.gts_status_name(status)) or str(status)
        self.message = message or _lib.decode(_lib.lib.gts_strerror(self.status)) or "error"
        self.detail = detail
        text = self.message + (f": {detail}" if detail else "")
        super().__init__(f"{text} [{self.name}]" if self.name else text)


# Readable names (and extra built-in bases) of the statuses known when this
# binding was written; others are generated from their C names.
_FRIENDLY = {
    "EINVAL": ("InvalidArgument", (ValueError,)),
    "ENOMEM": ("OutOfMemory", (MemoryError,)),
    "ESTRUCT": ("StructSizeError", ()),
    "EOPTION": ("UnknownOption", (ValueError,)),
    "ERANGE": ("OutOfRange", (ValueError,)),
    "ECALLBACK": ("CallbackError", ()),
    "EMOVES": ("TooManyMoves", ()),
    "ESCORE": ("ScoreOutOfRange", ()),
    "ENOTSUP": ("NotSupported", ()),
    "EBUSY": ("Busy", (RuntimeError,)),
    "ETHREAD": ("ThreadError", (RuntimeError,)),
    "EALGORITHM": ("UnknownAlgorithm", (ValueError,)),
    "EPARSE": ("ParseError", (ValueError,)),
}

#: status code -> C name ("EINVAL"), for every status the library knows.
STATUS_NAMES: Dict[int, str] = {}
_CLASSES: Dict[int, Type[GtsError]] = {}
_MIN_CODE = -1024  # scan range; codes are small negatives


def _camel(cname: str) -> str:
    base = cname[1:] if cname.startswith("E") and len(cname) > 1 else cname
    return "".join(p.capitalize() for p in base.lower().split("_")) + "Error"


def _generate() -> Dict[str, Type[GtsError]]:
    made: Dict[str, Type[GtsError]] = {}
    misses = 0
    code = -1
    while code >= _MIN_CODE and misses < 64:
        cname = _lib.decode(_lib.lib.gts_status_name(code))
        if cname is None:
            misses += 1
            code -= 1
            continue
        misses = 0
        pyname, bases = _FRIENDLY.get(cname, (_camel(cname), ()))
        doc = "%s (GTS_%s = %d): %s." % (pyname, cname, code,
                                         _lib.decode(_lib.lib.gts_strerror(code)))
        cls = type(pyname, (GtsError,) + bases,
                   {"status": code, "name": cname, "__doc__": doc, "__module__": "gts"})
        STATUS_NAMES[code] = cname
        _CLASSES[code] = cls
        made[pyname] = cls
        code -= 1
    return made


GtsError.__module__ = "gts"
ERROR_CLASSES = _generate()
globals().update(ERROR_CLASSES)
__all__ += sorted(ERROR_CLASSES)


def error_class(status: int) -> Type[GtsError]:
    """The GtsError subclass of a status code (GtsError itself if unknown)."""
    return _CLASSES.get(status, GtsError)


def make_error(status: int, detail: Optional[str] = None) -> GtsError:
    cls = error_class(status)
    if cls is GtsError:
        return GtsError(status=status, detail=detail)
    return cls(detail=detail)


def error(cname: str, detail: Optional[str] = None) -> GtsError:
    """The GtsError of a status by C name ("ERANGE"), with a detail."""
    for code, name in STATUS_NAMES.items():
        if name == cname:
            return make_error(code, detail)
    return GtsError(detail or cname)


def raise_for_status(status: int, detail: Optional[str] = None) -> None:
    """Raise the matching GtsError subclass when @status is negative."""
    if status < 0:
        raise make_error(status, detail)
