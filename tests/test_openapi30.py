"""The ``/docs`` page's copy of the API description (``pipeline/serve/openapi30.py``): OpenAPI
3.0.3 that the shipped swagger-ui (4.15.5) renders, with the same operations and fields as the
3.1.0 ``/openapi.json``. The browser test ``tests/test_browser_equity.py`` reads the rendered page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.serve.openapi30 import OPENAPI_30, openapi_30

#: schema keys and values OpenAPI 3.0 does not have
ONLY_31 = ("const", "prefixItems", "$defs")


def _nodes(x: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(x, dict):
        out.append(x)
        for v in x.values():
            out.extend(_nodes(v))
    elif isinstance(x, list):
        for v in x:
            out.extend(_nodes(v))
    return out


def test_each_31_form_has_its_30_spelling() -> None:
    ref = {"$ref": "#/components/schemas/Paint"}
    doc = {"openapi": "3.1.0", "paths": {}, "components": {"schemas": {"B": {"type": "object", "properties": {
        "a": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "title": "A"},
        "b": {"anyOf": [ref, {"type": "null"}]},
        "c": {"type": ["string", "null"]},
        "const": {"const": "x", "examples": ["x", "y"]},
        "e": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "f": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2},
    }}}}}
    got = openapi_30(doc)
    assert got["openapi"] == OPENAPI_30 == "3.0.3" and doc["openapi"] == "3.1.0"  # a copy
    p = got["components"]["schemas"]["B"]["properties"]
    assert p["a"] == {"type": "integer", "minimum": 1, "title": "A", "nullable": True}
    assert p["b"] == {"allOf": [ref], "nullable": True}
    assert p["c"] == {"type": "string", "nullable": True}
    assert p["const"] == {"enum": ["x"], "example": "x"}  # a property named like a keyword stays
    assert p["e"] == {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 1,
                      "exclusiveMaximum": True}
    assert p["f"] == {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                      "minItems": 2}


def test_the_servers_description_as_30(artifacts: Path) -> None:
    from pipeline.serve.app import create_app

    doc = create_app(artifacts, warm_up=False).openapi()
    got = openapi_30(doc)
    assert doc["openapi"].startswith("3.1") and got["openapi"] == "3.0.3"
    ops = {(p, m) for p, item in doc["paths"].items() for m in item}
    assert {(p, m) for p, item in got["paths"].items() for m in item} == ops and len(ops) >= 29
    assert set(got["components"]["schemas"]) == set(doc["components"]["schemas"])
    for name, schema in doc["components"]["schemas"].items():
        assert set(got["components"]["schemas"][name].get("properties", {})) == set(schema.get("properties", {}))
    nodes = _nodes(got)
    assert not [n for n in nodes if n.get("type") == "null" or isinstance(n.get("type"), list)]
    assert not [n for n in nodes if any(k in n for k in ONLY_31)]
    # every Optional field of the request bodies is nullable, none lost
    optional = json.dumps(doc).count('{"type": "null"}')
    assert optional > 0 and json.dumps(got).count('"nullable": true') == optional
