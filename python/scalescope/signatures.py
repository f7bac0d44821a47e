"""Each helper's query arguments as its own: a signature that IPython completes and help() shows, and a section of
its docstring that lists them with their meaning, choices, range and unit (query_arguments.py, generated from the
schema), so that no other file is needed to call it."""
from __future__ import annotations

import functools
import inspect
import textwrap
from typing import Any, Callable, TypeVar

from .query_arguments import QUERY_ARGUMENTS

F = TypeVar("F", bound=Callable[..., Any])
_ANNOTATIONS = {"int": int, "float": float, "bool": bool, "str": str, "list": list, "dict": dict, "Any": Any}


def takes_query_arguments(kind: str) -> Callable[[F], F]:
    """Decorates a helper whose `**query` is the `kind` query's arguments: each becomes a keyword-only parameter
    (default None: not given, so that the engine's or the helper's default applies, and a None passed is dropped),
    and the docstring lists them."""

    def give(helper: F) -> F:
        query_names = {name for name, _, _ in QUERY_ARGUMENTS[kind]}

        @functools.wraps(helper)
        def called(*args: Any, **kwargs: Any) -> Any:
            return helper(*args, **{k: v for k, v in kwargs.items() if v is not None or k not in query_names})

        signature = inspect.signature(helper)
        own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        rest = [p for p in signature.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD]
        named = {p.name for p in own}
        arguments = [a for a in QUERY_ARGUMENTS[kind] if a[0] not in named]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=_ANNOTATIONS[annotation]) for name, annotation, _ in arguments]
        called.__signature__ = signature.replace(parameters=own + added + rest)  # type: ignore[attr-defined]
        listed = [textwrap.fill(f"{name} ({annotation}): {text}", 112, initial_indent="    ",
                                subsequent_indent="        ") for name, annotation, text in arguments]
        called.__doc__ = (inspect.cleandoc(helper.__doc__ or "") + f"\n\nThe `{kind}` query's arguments (docs/api.md; "
                          "None or left out: the default in brackets):\n" + "\n".join(listed))
        return called  # type: ignore[return-value]

    return give
