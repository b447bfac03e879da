"""Class -> method specs: which methods become functions, and what each takes and returns.

Which methods: the public ones (no leading ``_``) of the class and its bases,
found by walking each class's ``__dict__`` (nothing is instantiated or bound):
plain functions, ``staticmethod`` and ``classmethod``, sync or ``async``.
Properties, other descriptors, nested classes and data are not functions, nor
is any method whose docstring says ``@hidden`` or ``@internal``.

Order: the order of first definition, bases first (the way dataclass fields
are ordered): a base class's methods come before the subclass's new ones, and
an override keeps the place of the method it overrides. This keeps a
function list stable when a subclass overrides a method.

Every problem is collected, never raised, each with its location
(``Class.method.param``, ``Class.method.return``, ``Class.method``, ``Class``);
a method with a problem is left out of ``ClassSpec.methods``.
"""

from __future__ import annotations

import inspect
import re
import typing
import warnings
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, Literal

import typing_extensions as te

from llmapp._errors import BuildProblem, class_location
from llmapp._records.record import Record
from llmapp.introspect._compat import (
    Parameter,
    get_args,
    get_origin,
    is_typeddict,
    resolve_forward,
    signature_of,
    type_display,
)
from llmapp.introspect._context import context_type
from llmapp.introspect._docstrings import DocInfo, DocstringWarning, parse_docstring
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import (
    NO_DEFAULT,
    ContextParameter,
    MethodSpec,
    Node,
    ObjectDef,
    ParameterSpec,
    TypeGraph,
)

__all__ = ["FUNCTION_NAME", "MAX_DESCRIPTION", "ClassSpec", "inspect_class"]

FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
"""What every vendor accepts as a function name."""
MAX_DESCRIPTION = 1024
"""Longest description vendors take without truncating or rejecting it."""
NO_FUNCTIONS = "the class has no public method to become a function"

_Kind = Literal["instance", "static", "class"]
_EMPTY = inspect.Parameter.empty
_VAR_POSITIONAL_KIND = inspect.Parameter.VAR_POSITIONAL
_VAR_KEYWORD_KIND = inspect.Parameter.VAR_KEYWORD
_UNPACK_ORIGINS: frozenset[Any] = frozenset({te.Unpack, getattr(typing, "Unpack", te.Unpack)})
_AWAITABLE_ORIGINS: frozenset[Any] = frozenset({Awaitable, Coroutine})
_NAME_IN_ERROR = re.compile(r"name '([^']+)' is not defined")


class ClassSpec(Record):
    """What introspection learned about one class.

    Attributes:
        cls: the class.
        methods: every public function without problems, in the documented order
            (``@hidden``/``@internal`` left out; ``@human`` kept with ``human=True``).
        graph: the named types those methods use.
        problems: every problem found, in method order, each with its location.
    """

    cls: type
    methods: tuple[MethodSpec, ...]
    graph: TypeGraph
    problems: tuple[BuildProblem, ...]


def inspect_class(cls: type) -> ClassSpec:
    """Read every public method of ``cls``; never raises for a bad class.

    Args:
        cls: the class whose methods become functions.

    Returns:
        The method specs, the type graph and every problem found.

    Example::

        spec = inspect_class(Shopping)
        if spec.problems:
            raise LlmApplicationError("Shopping", spec.problems)
    """
    if not isinstance(cls, type):
        problem = BuildProblem(repr(cls), "is not a class")
        return ClassSpec(cls=type(cls), methods=(), graph=TypeGraph(), problems=(problem,))
    reader = _ClassReader(cls)
    methods = tuple(spec for spec in map(reader.read, _public_methods(cls)) if spec is not None)
    return reader.finish(methods)


# --- which methods ----------------------------------------------------------------------------


class _Candidate(Record):
    name: str
    kind: _Kind
    attribute: Any
    """The class attribute as written (a function, staticmethod or classmethod)."""
    function: Any
    owner: type
    """The class whose ``__dict__`` holds the attribute."""


def _public_methods(cls: type) -> list[_Candidate]:
    first_defined: dict[str, None] = {}
    for klass in reversed(cls.__mro__):
        if klass is not object:
            first_defined.update((name, None) for name in vars(klass) if not name.startswith("_"))
    candidates = []
    for name in first_defined:
        owner = next(klass for klass in cls.__mro__ if name in vars(klass))
        candidate = _candidate(name, vars(owner)[name], owner)
        if candidate is not None:
            candidates.append(candidate)
    return candidates


def _candidate(name: str, attribute: Any, owner: type) -> _Candidate | None:
    if isinstance(attribute, staticmethod):
        return _Candidate(
            name=name, kind="static", attribute=attribute, function=attribute.__func__, owner=owner
        )
    if isinstance(attribute, classmethod):
        function = attribute.__func__
        if isinstance(function, property):  # a class property (3.9-3.12), not a method
            return None
        return _Candidate(
            name=name, kind="class", attribute=attribute, function=function, owner=owner
        )
    if inspect.isfunction(attribute):
        return _Candidate(
            name=name, kind="instance", attribute=attribute, function=attribute, owner=owner
        )
    return None


def _docstring(cls: type, candidate: _Candidate) -> str | None:
    """The method's docstring, or the one of the method it overrides (like ``inspect.getdoc``)."""
    doc: str | None = getattr(candidate.function, "__doc__", None)
    if doc:
        return doc
    for klass in cls.__mro__:
        attribute = vars(klass).get(candidate.name)
        function = getattr(attribute, "__func__", attribute)
        inherited = getattr(function, "__doc__", None)
        if inherited and callable(function):
            return str(inherited)
    return None


# --- one method -------------------------------------------------------------------------------


class _ClassReader:
    """Reads methods of one class with one TypeBuilder, keeping problems in order."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.owner = class_location(cls)
        self.builder = TypeBuilder()
        # One list for the builder's problems and the reader's, so they stay in the order found.
        self.problems: list[BuildProblem] = self.builder.problems
        self._namespaces: dict[type, dict[str, Any]] = {}
        self._scopes: dict[tuple[type, int], _Scope] = {}
        self._resolved: dict[tuple[Any, int], Any] = {}
        self._contexts: dict[int, tuple[Any, Any]] = {}
        self.typed: dict[tuple[str, int], tuple[Any, Node | None]] = {}
        """A string annotation in a scope (by id) -> its context type and node, once it gave
        them without a problem: the methods of a class repeat the same few annotations."""

    def finish(self, methods: tuple[MethodSpec, ...]) -> ClassSpec:
        graph = self.builder.graph()
        if not methods and not self.problems:
            self.problems.append(BuildProblem(self.owner, NO_FUNCTIONS))
        return ClassSpec(cls=self.cls, methods=methods, graph=graph, problems=tuple(self.problems))

    def read(self, candidate: _Candidate) -> MethodSpec | None:
        doc = parse_docstring(_docstring(self.cls, candidate))
        if doc.hidden:
            return None
        before = len(self.problems)
        spec = _MethodReader(self, candidate, doc).read()
        return spec if len(self.problems) == before else None

    def problem(self, location: str, reason: str) -> None:
        self.problems.append(BuildProblem(location, reason))

    def build(self, annotation: Any, location: str, scope: _Scope) -> Node | None:
        return self.builder.build(
            annotation, location=location, globalns=scope.globalns, localns=scope.localns
        )

    def resolve(self, annotation: str | typing.ForwardRef, scope: _Scope) -> Any:
        """A string annotation's value; the methods of a class repeat the same few, in the
        same namespaces, so each is evaluated once (failures are not kept)."""
        key = (annotation, id(scope))
        if key not in self._resolved:
            self._resolved[key] = resolve_forward(annotation, scope.globalns, scope.localns)
        return self._resolved[key]

    def context_type(self, annotation: Any) -> Any | None:
        """``context_type(annotation)``, once per annotation object: the methods of a class
        repeat the same few (one object each, ``resolve`` keeping them)."""
        found = self._contexts.get(id(annotation))
        if found is None:
            # The annotation is kept with its answer, so its id is never another's.
            found = self._contexts[id(annotation)] = (annotation, context_type(annotation))
        return found[1]

    def scope(self, owner: type, globalns: dict[str, Any]) -> _Scope:
        """Where the methods of ``owner`` defined in one module are read: one object for all
        of them (it keeps ``globalns`` alive, so its id keys what is read in it)."""
        key = (owner, id(globalns))
        scope = self._scopes.get(key)
        if scope is None:
            scope = self._scopes[key] = _Scope(globalns=globalns, localns=self._localns(owner))
        return scope

    def _localns(self, owner: type) -> dict[str, Any]:
        """The owner's namespace minus its methods: a method named ``date`` never hides a type."""
        if owner not in self._namespaces:
            namespace = {
                name: value
                for name, value in vars(owner).items()
                if not inspect.isfunction(value)
                and not isinstance(value, (staticmethod, classmethod, property))
            }
            namespace.setdefault(owner.__name__, owner)
            self._namespaces[owner] = namespace
        return self._namespaces[owner]


class _Scope(Record):
    globalns: dict[str, Any]
    localns: Mapping[str, Any]


class _Unresolved(Exception):
    """An annotation could not be evaluated; the problem is already recorded."""


class _MethodReader:
    def __init__(self, reader: _ClassReader, candidate: _Candidate, doc: DocInfo) -> None:
        self.reader = reader
        self.candidate = candidate
        self.doc = doc
        self.location = f"{reader.owner}.{candidate.name}"
        self.function = function = _unwrap(candidate.function)
        """The innermost function, under any ``functools.wraps`` decorators."""
        self.scope = reader.scope(candidate.owner, getattr(function, "__globals__", {}))
        self.is_async = inspect.iscoroutinefunction(candidate.function) or (
            function is not candidate.function and inspect.iscoroutinefunction(function)
        )
        self.python_names: set[str] = set()
        """Every name in the signature, ``self`` and ``**kwargs`` included."""
        self.context: list[ContextParameter] = []
        """Parameters the caller supplies per call by type, in signature order."""

    def read(self) -> MethodSpec | None:
        name, doc = self.candidate.name, self.doc
        if FUNCTION_NAME.match(name) is None:
            self.reader.problem(self.location, f"invalid function name {name!r}: {_NAME_RULE}")
        if doc.name is not None and FUNCTION_NAME.match(doc.name) is None:
            self.reader.problem(self.location, f"invalid @name {doc.name!r}: {_NAME_RULE}")
        if doc.description is not None and len(doc.description) > MAX_DESCRIPTION:
            self.reader.problem(self.location, _too_long("description", doc.description))
        signature = self._signature()
        if signature is None:
            return None
        parameters = self._parameters(signature[0])
        returns = self._returns(signature[1])
        self._warn_undocumented_names(parameters)
        decorated = self._deprecated_by_decorator()
        return MethodSpec(
            name=name,
            kind=self.candidate.kind,
            is_async=self.is_async,
            parameters=tuple(parameters),
            returns=returns,
            description=doc.description,
            summary=doc.summary,
            title=doc.title,
            returns_description=doc.returns,
            tags=doc.tags,
            deprecated=doc.deprecated or decorated is not None,
            deprecation=doc.deprecation or decorated,
            exposed=doc.name if doc.name != name else None,
            human=doc.human,
            approval=doc.approval or "destructive" in doc.tags,
            timeout=self._timeout(doc.timeout),
            context=tuple(self.context),
        )

    def _timeout(self, text: str | None) -> float | None:
        """``@timeout SECONDS`` as a number; anything else is a problem at the method."""
        if text is None:
            return None
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds < float("inf"):
            self.reader.problem(self.location, f"@timeout {text!r}: not a positive number")
            return None
        return seconds

    def _signature(self) -> tuple[list[Parameter], Any] | None:
        """The parameters the LLM fills (no ``self``/``cls``) and the return annotation."""
        try:
            parameters, returns = signature_of(self.candidate.function)
        except (TypeError, ValueError) as error:
            self.reader.problem(self.location, f"cannot read the signature: {error}")
            return None
        self.python_names = {parameter.name for parameter in parameters}
        if self.candidate.kind == "static":
            return parameters, returns
        receiver = "self" if self.candidate.kind == "instance" else "cls"
        if not parameters or parameters[0].kind not in _POSITIONAL:
            self.reader.problem(self.location, f"the method takes no '{receiver}' parameter")
            return None
        return parameters[1:], returns

    # --- parameters ---------------------------------------------------------------------------

    def _parameters(self, parameters: list[Parameter]) -> list[ParameterSpec]:
        specs: list[ParameterSpec] = []
        for parameter in parameters:
            specs.extend(self._parameter(parameter))
        if len({spec.name for spec in specs}) < len(specs):  # a key of **kwargs among them
            seen: set[str] = set()
            for spec in specs:
                if spec.name in seen:
                    self.reader.problem(
                        f"{self.location}.{spec.name}",
                        "named twice: as a parameter and as a key of **kwargs",
                    )
                seen.add(spec.name)
        return specs

    def _parameter(self, parameter: Parameter) -> list[ParameterSpec]:
        kind = parameter.kind
        if (
            kind is _VAR_POSITIONAL_KIND
            or kind is _VAR_KEYWORD_KIND
            or parameter.annotation is _EMPTY
        ):
            return self._unusual(parameter)
        annotation = parameter.annotation
        typed = (
            self.reader.typed.get((annotation, id(self.scope))) if type(annotation) is str else None
        )
        if typed is None:
            typed = self._typed(parameter)
        if typed is None:
            return []
        wanted, node = typed
        if wanted is not None:
            self._context_parameter(parameter, wanted, f"{self.location}.{parameter.name}")
            return []
        assert node is not None  # built when not a context parameter
        description = self.doc.params.get(parameter.name) or node.meta.description
        self._check_length(parameter.name, description)
        has_default = parameter.default is not _EMPTY
        return [
            ParameterSpec(
                name=parameter.name,
                type=node,
                required=not has_default,
                default=parameter.default if has_default else NO_DEFAULT,
                description=description,
                positional_only=kind is inspect.Parameter.POSITIONAL_ONLY,
            )
        ]

    def _typed(self, parameter: Parameter) -> tuple[Any, Node | None] | None:
        """The context type (``None`` for an ordinary parameter) and the node (``None`` for a
        context parameter) of a parameter's annotation; ``None`` once a problem is recorded.
        What a string annotation gives is kept in ``_ClassReader.typed``."""
        annotation = parameter.annotation
        key = (annotation, id(self.scope)) if type(annotation) is str else None
        location = f"{self.location}.{parameter.name}"
        reported = len(self.reader.problems)
        try:
            annotation = self._resolve(annotation, location)
        except _Unresolved:
            return None
        wanted = self.reader.context_type(annotation)
        node = None if wanted is not None else self.reader.build(annotation, location, self.scope)
        if wanted is None and node is None:
            return None
        if key is not None and len(self.reader.problems) == reported:
            self.reader.typed[key] = (wanted, node)
        return wanted, node

    def _unusual(self, parameter: Parameter) -> list[ParameterSpec]:
        """``*args`` (refused), ``**kwargs`` and a parameter without an annotation."""
        location = f"{self.location}.{parameter.name}"
        if parameter.kind is _VAR_POSITIONAL_KIND:
            self.reader.problem(location, _VAR_POSITIONAL)
            return []
        if parameter.annotation is _EMPTY:
            is_kwargs = parameter.kind is _VAR_KEYWORD_KIND
            self.reader.problem(location, _BARE_KWARGS if is_kwargs else "missing type annotation")
            return []
        try:
            annotation = self._resolve(parameter.annotation, location)
        except _Unresolved:
            return []
        return self._spread(annotation, location)

    def _context_parameter(self, parameter: Parameter, wanted: Any, location: str) -> None:
        if not isinstance(wanted, type):
            self.reader.problem(location, f"a context parameter needs a class, not {wanted!r}")
        elif parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            self.reader.problem(location, "a context parameter cannot be positional-only")
        else:
            required = parameter.default is _EMPTY
            self.context.append(
                ContextParameter(name=parameter.name, type=wanted, required=required)
            )

    def _spread(self, annotation: Any, location: str) -> list[ParameterSpec]:
        """``**kwargs: Unpack[TD]``: one parameter per key of the TypedDict."""
        if get_origin(annotation) not in _UNPACK_ORIGINS:
            self.reader.problem(location, f"{_BARE_KWARGS} (got {type_display(annotation)})")
            return []
        args = get_args(annotation)
        try:
            typed_dict = self._resolve(args[0], location) if args else None
        except _Unresolved:
            return []
        if not is_typeddict(typed_dict):
            shown = type_display(typed_dict)
            self.reader.problem(location, f"Unpack[...] of **kwargs needs a TypedDict, got {shown}")
            return []
        node = self.reader.build(typed_dict, location, self.scope)
        definition = self.reader.builder.graph().definitions.get(getattr(node, "key", None))
        if not isinstance(definition, ObjectDef):
            return []  # the builder has recorded why
        specs = []
        for key in definition.fields:
            # The builder already took the key's text from the TypedDict's Attributes or Doc.
            description = self.doc.params.get(key.name) or key.description
            self._check_length(key.name, description)
            specs.append(
                ParameterSpec(
                    name=key.name,
                    type=key.type,
                    required=key.required,
                    default=key.default,
                    description=description,
                    python_name=key.python_name,
                    from_kwargs=True,
                )
            )
        return specs

    # --- return -------------------------------------------------------------------------------

    def _returns(self, annotation: Any) -> Node | None:
        if annotation is _EMPTY:
            self.reader.problem(self.location, _NO_RETURN)
            return None
        location = f"{self.location}.return"
        try:
            annotation = self._resolve(annotation, location)
            if not self.is_async and get_origin(annotation) in _AWAITABLE_ORIGINS:
                self.is_async = True  # ``-> Awaitable[T]``: the caller awaits, the LLM sees T
                args = get_args(annotation)
                annotation = self._resolve(args[-1], location) if args else Any
        except _Unresolved:
            return None
        if annotation is None or annotation is type(None):
            return None
        return self.reader.build(annotation, location, self.scope)

    # --- helpers ------------------------------------------------------------------------------

    def _resolve(self, annotation: Any, location: str) -> Any:
        """Evaluate a string annotation; nested forward references are the builder's."""
        if not isinstance(annotation, (str, typing.ForwardRef)):
            return annotation
        try:
            return self.reader.resolve(annotation, self.scope)
        except NameError as error:
            name = getattr(error, "name", None) or _missing_name(error, annotation)
            self.reader.problem(location, f"unresolvable forward reference {name!r}")
        except Exception as error:  # a syntax error or a failing subscript in the text
            shown = type_display(annotation)
            self.reader.problem(location, f"cannot evaluate annotation {shown!r}: {error}")
        raise _Unresolved

    def _check_length(self, name: str, description: str | None) -> None:
        """A problem at parameter ``name`` when its description is too long."""
        if description is not None and len(description) > MAX_DESCRIPTION:
            self.reader.problem(f"{self.location}.{name}", _too_long("description", description))

    def _deprecated_by_decorator(self) -> str | None:
        """The message of PEP 702's ``@deprecated`` on the function or on its static/class
        method wrapper (``None`` when there is none)."""
        candidate = self.candidate
        for item in (candidate.attribute, candidate.function, self.function):
            message: str | None = getattr(item, "__deprecated__", None)
            if message is not None:
                return message
        return None

    def _warn_undocumented_names(self, parameters: list[ParameterSpec]) -> None:
        if self.doc.params.keys() <= self.python_names:
            return  # every documented name is in the signature
        known = {spec.name for spec in parameters} | self.python_names
        function = self.function
        code = getattr(function, "__code__", None)
        for name in self.doc.params:
            if name in known:
                continue
            message = (
                f"{self.location}: docstring documents parameter {name!r}, "
                "which the method does not have"
            )
            if code is None:
                warnings.warn(message, DocstringWarning, stacklevel=4)
                continue
            registry = self.scope.globalns.setdefault("__warningregistry__", {})
            warnings.warn_explicit(
                message,
                DocstringWarning,
                code.co_filename,
                code.co_firstlineno,
                module=getattr(function, "__module__", None),
                registry=registry,
            )


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_NAME_RULE = "a function name must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
_VAR_POSITIONAL = "*args is not supported: an LLM passes named arguments; give each one a name"
_BARE_KWARGS = "bare **kwargs is not supported: annotate it as **kwargs: Unpack[SomeTypedDict]"
_NO_RETURN = "missing return annotation (add '-> None' if it returns nothing)"


def _too_long(what: str, text: str) -> str:
    return f"{what} is {len(text):,} characters, over the limit of {MAX_DESCRIPTION:,}"


def _unwrap(function: Callable[..., Any]) -> Any:
    if not hasattr(function, "__wrapped__"):
        return function
    try:
        return inspect.unwrap(function)
    except ValueError:  # a __wrapped__ cycle
        return function


def _missing_name(error: NameError, annotation: Any) -> str:
    match = _NAME_IN_ERROR.search(str(error))
    return match.group(1) if match else type_display(annotation)
