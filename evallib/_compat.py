"""Deprecation machinery: old spellings keep working for one release, with a warning.

Every rename of 0.2.0 goes through one of these helpers, so that each old spelling
warns the same way (a :class:`DeprecationWarning` naming the new spelling) and the
warning points at the caller's line:

- :func:`renamed_keywords` -- a keyword argument renamed (``reps=`` -> ``n_resamples=``);
- :func:`renamed_choice` -- a string option renamed (``"midp"`` -> ``"mid-p"``);
- :func:`renamed_flags` -- boolean flags that chose a version replaced by one choice keyword
  (``exact=True`` -> ``method="exact"``);
- :func:`renamed_fields` -- a result field renamed (``std_error`` -> ``se``): the old
  name stays readable as a property;
- :func:`moved_names` -- a name moved: a module ``__getattr__`` that finds it in its new
  home; :func:`moved_modules` -- a module path moved: ``import old.path`` finds the new one.

The list of what was renamed lives in ``CHANGELOG.md``; ``tests/test_compat.py`` checks
that every public name and keyword of 0.1.0 (``tests/data/api_0_1_0.json``) still works.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import inspect
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["MID_P", "deprecated", "moved_modules", "moved_names", "renamed_choice", "renamed_fields", "renamed_flags",
           "renamed_keywords"]

F = TypeVar("F", bound=Callable[..., Any])

REMOVAL = "0.3.0"

#: The old spellings of the mid-p option string, for :func:`renamed_choice`: ``"mid-p"`` is the one.
MID_P = {"midp": "mid-p", "mid_p": "mid-p"}


def _public(path: str) -> str:
    """The public namespace of a module path: ``evallib.onetestset._pairwise`` -> ``evallib.onetestset``."""
    parts = path.split(".")
    while len(parts) > 1 and parts[-1].startswith("_"):
        parts.pop()
    return ".".join(parts)


def _home(path: str, attr: str) -> str:
    """Where to tell a user to find ``attr`` of module ``path``: its public namespace if that
    exports it (``evallib.lessons.plot_design_map``), else the module itself."""
    public = _public(path)
    if public != path and attr in getattr(importlib.import_module(public), "__all__", ()):
        return f"{public}.{attr}"
    return f"{path}.{attr}"


def deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new`` (one sentence, both named)."""
    warnings.warn(f"{old} is deprecated and will be removed in evallib {REMOVAL}; use {new} instead",
                  DeprecationWarning, stacklevel=stacklevel)


def renamed_keywords(**old_to_new: str) -> Callable[[F], F]:
    """Accept each old keyword of ``old_to_new`` in place of its new name, with a warning.

    Passing both the old and the new name is a ``TypeError``, as passing one argument
    twice is.

    Examples
    --------
    >>> @renamed_keywords(reps="n_resamples")
    ... def f(*, n_resamples=10):
    ...     return n_resamples
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     f(reps=3), w[0].category.__name__
    (3, 'DeprecationWarning')
    """
    def decorate(func: F) -> F:
        params = inspect.signature(func).parameters
        for old, new in old_to_new.items():
            if new not in params:
                raise AssertionError(f"{func.__qualname__} has no parameter {new!r} to rename {old!r} to")
            if old in params:
                raise AssertionError(f"{func.__qualname__} still has the old parameter {old!r}")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{func.__name__}() got both {old}= (deprecated) and {new}=; "
                                        f"pass only {new}=")
                    deprecated(f"{func.__name__}({old}=...)", f"{new}=")
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        wrapper.__deprecated_keywords__ = dict(old_to_new)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_choice(value: Any, name: str, old_to_new: Mapping[str, str], *, stacklevel: int = 4) -> Any:
    """Return ``value``, or its new spelling with a warning if it is an old one.

    Call it on the argument before :func:`evallib._validate.check_choice`.
    """
    if isinstance(value, str) and value in old_to_new:
        deprecated(f"{name}={value!r}", f"{name}={old_to_new[value]!r}", stacklevel=stacklevel)
        return old_to_new[value]
    return value


def renamed_flags(keyword: str, defaults: Mapping[str, bool],
                  choices: Mapping[tuple[bool, ...], str]) -> Callable[[F], F]:
    """Accept old boolean flags that chose a version, as the one choice ``keyword`` that replaced them.

    ``defaults`` lists the old flags with their old defaults, in order; ``choices`` maps each
    combination of their values that the old signature accepted (a tuple in the order of
    ``defaults``) to the value of ``keyword`` it meant. A call that passes a flag warns once,
    naming the new spelling, and passes that value on as ``keyword=``. A combination that is
    not in ``choices`` (the flags contradict each other), a flag that is neither True nor False, or a flag
    beside ``keyword=`` itself is a ``ValueError`` naming the arguments.

    Examples
    --------
    >>> @renamed_flags("method", {"exact": False}, {(False,): "chi2", (True,): "exact"})
    ... def f(*, method="chi2"):
    ...     return method
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     f(exact=True), str(w[0].message)
    ('exact', "f(exact=True) is deprecated and will be removed in evallib 0.3.0; use method='exact' instead")
    """
    names = tuple(defaults)
    for combination, value in choices.items():
        if len(combination) != len(names) or not isinstance(value, str):
            raise AssertionError(f"choices must map a tuple of {len(names)} flags to a string, got "
                                 f"{combination!r}: {value!r}")

    def decorate(func: F) -> F:
        params = inspect.signature(func).parameters
        if keyword not in params:
            raise AssertionError(f"{func.__qualname__} has no parameter {keyword!r} to replace the flags {names}")
        if set(names) & set(params):
            raise AssertionError(f"{func.__qualname__} still has the old flags {sorted(set(names) & set(params))}")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            given = [name for name in names if name in kwargs]
            if given:
                spelled = ", ".join(f"{name}={kwargs[name]!r}" for name in given)
                if keyword in kwargs:
                    raise ValueError(f"{func.__name__}() got {keyword}={kwargs[keyword]!r} and the deprecated "
                                     f"{spelled}; pass only {keyword}=")
                for name in given:
                    if kwargs[name] not in (True, False):
                        raise ValueError(f"{name} must be True or False, got {kwargs[name]!r}")
                values = tuple(bool(kwargs.pop(name, default)) for name, default in defaults.items())
                if values not in choices:
                    both = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
                    raise ValueError(f"{func.__name__}() got {spelled}: {both} contradict each other; pass one "
                                     f"{keyword}= of {', '.join(repr(v) for v in dict.fromkeys(choices.values()))}")
                deprecated(f"{func.__name__}({spelled})", f"{keyword}={choices[values]!r}")
                kwargs[keyword] = choices[values]
            return func(*args, **kwargs)

        wrapper.__deprecated_flags__ = names  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_fields(**old_to_new: str) -> Callable[[type], type]:
    """Class decorator: each old field name of ``old_to_new`` reads its new field, with a warning."""
    def decorate(cls: type) -> type:
        for old, new in old_to_new.items():
            def getter(self: Any, _old: str = old, _new: str = new) -> Any:
                deprecated(f"{type(self).__name__}.{_old}", f".{_new}")
                return getattr(self, _new)
            setattr(cls, old, property(getter, doc=f"Deprecated name of :attr:`{new}`."))
        cls.__deprecated_fields__ = dict(old_to_new)  # type: ignore[attr-defined]
        return cls

    return decorate


def moved_names(module_name: str, moved: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for names that moved: ``moved`` maps an old name to its new home.

    The new home is ``"package.module"`` (the old name is a module that moved) or
    ``"package.module:name"`` (an object, possibly renamed). Unknown names raise the usual
    ``AttributeError``.
    """
    def __getattr__(name: str) -> Any:
        target = moved.get(name)
        if target is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        path, _, attr = target.partition(":")
        obj = importlib.import_module(path)
        new = _public(path)
        if attr:
            obj = getattr(obj, attr)
            new = _home(path, attr)
        if not _import_probe():
            deprecated(f"{module_name}.{name}", new)
        return obj

    return __getattr__


def _import_probe() -> bool:
    """Whether a module ``__getattr__`` was called by importlib's ``from package import name``
    probe (``hasattr`` in ``_handle_fromlist``), which asks once before the real lookup: only
    the real lookup warns, so the statement warns once."""
    frame = sys._getframe(2)
    return frame is not None and frame.f_code.co_name == "_handle_fromlist"


def _outside_frame() -> int:
    """The stacklevel, for :func:`deprecated`, of the first frame outside importlib and this module.

    ``warnings.warn`` itself passes over importlib's frames when it counts, so they are not counted.
    """
    frame, level = sys._getframe(1), 2  # 1 is deprecated(), 2 its caller
    while frame is not None:
        name = frame.f_code.co_filename
        internal = "importlib" in name and "_bootstrap" in name
        if not internal and name != __file__:
            return level
        if not internal:
            level += 1
        frame = frame.f_back
    return level


class _Union(types.ModuleType):
    """An old module whose names now live in several modules: each is looked up there."""

    def __init__(self, name: str, homes: tuple[str, ...]) -> None:
        super().__init__(name, f"Deprecated: the names of {name} now live in {', '.join(homes)}.")
        self.__homes = homes
        self.__all__ = sorted({n for h in homes for n in getattr(importlib.import_module(h), "__all__", ())})

    def __getattr__(self, name: str) -> Any:
        for home in self.__homes:
            module = importlib.import_module(home)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")


class _KeepsItsNames(types.ModuleType):
    """A package one of whose public names is also a moved module path.

    ``evallib.onetestset.measures`` is the function :func:`~evallib.measures` and was, in 0.1.0,
    also a module path. Importing a module binds it as an attribute of its parent package, so
    importing the old path would rebind the package's ``measures`` to the module and break every
    later ``evallib.onetestset.measures(...)``. This class (given to the parent package the first
    time such a path is imported) refuses that one rebinding: a module never replaces a name the
    package defines as something else.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        current = self.__dict__.get(name)
        if isinstance(value, types.ModuleType) and current is not None and not isinstance(current, types.ModuleType):
            return
        super().__setattr__(name, value)


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the module paths that moved: importing one warns and gives the module's new home."""

    def __init__(self) -> None:
        self.aliases: dict[str, tuple[str, ...]] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname in self.aliases:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        homes = self.aliases[spec.name]
        parent_name, _, leaf = spec.name.rpartition(".")
        parent = sys.modules.get(parent_name)
        current = getattr(parent, "__dict__", {}).get(leaf)
        if type(parent) is types.ModuleType and current is not None and not isinstance(current, types.ModuleType):
            parent.__class__ = _KeepsItsNames  # the import must not rebind the parent's name ``leaf``
        public = list(dict.fromkeys(_public(h) for h in homes))
        deprecated(f"the module {spec.name}", " or ".join(public), stacklevel=_outside_frame())
        if len(homes) == 1:
            return importlib.import_module(homes[0])
        return _Union(spec.name, homes)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module object is the new home (or a view of several)."""


_FINDER = _AliasFinder()


def moved_modules(aliases: Mapping[str, str | tuple[str, ...]]) -> None:
    """Make each old module path of ``aliases`` importable, with a warning, from its new home(s).

    ``import evallib.onetestset.pairwise`` then warns and binds the new module (a module that
    was split maps to a tuple of homes, searched in order for each name).
    """
    for old, homes in aliases.items():
        _FINDER.aliases[old] = (homes,) if isinstance(homes, str) else tuple(homes)
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
