#!/usr/bin/env python3
"""A synthetic, deterministic OpenAPI 3.0 document of N operations, written so that both
mcs-codegen and progenitor accept it (every operation has an operationId, JSON bodies and
one JSON success response): CRUD over N/5 resources, each with a component schema of eight
typed properties (strings with formats, integers with bounds, an enum, an array, a nested
object), path and query parameters. Used by scripts/compare-progenitor.sh.

Usage: scripts/synthetic-openapi.py N > doc.json
       scripts/synthetic-openapi.py --graph N > doc.json

With --graph, a document shaped like Microsoft Graph's instead (what issue 20's size target
names): N operations under N/29 tags `areaA.resourceR`, each taking or returning one of 400
entity schemas of twenty properties that reference each other (a binary tree, plus a link
from every entity back to the first, as Graph's navigation properties do) — the same
document as mcs-orchestrator's opt-in scale test (`MCS_SCALE_LINKED=1`).
"""

import json
import sys


def resource_schema(name):
    return {
        "type": "object",
        "required": ["id", "name"],
        "properties": {
            "id": {"type": "integer", "format": "int64", "minimum": 1},
            "name": {"type": "string", "maxLength": 200},
            "description": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "status": {"type": "string", "enum": ["active", "archived", "deleted"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "owner": {
                "type": "object",
                "properties": {
                    "login": {"type": "string"},
                    "email": {"type": "string", "format": "email"},
                },
            },
            "size": {"type": "integer", "minimum": 0, "maximum": 1000000},
        },
        "description": f"A {name}.",
    }


def graph_entity(n, entities):
    properties = {}
    for p in range(20):
        properties[f"property{p}"] = {
            "type": "integer" if p % 3 == 0 else "string",
            "description": f"Property {p} of entity {n}, as the service keeps it.",
        }
    for k, other in enumerate([2 * n + 1, 2 * n + 2, 0]):
        if other < entities and other != n:
            properties[f"related{k}"] = {"$ref": f"#/components/schemas/entity{other}"}
    return {"type": "object", "description": f"Entity {n}.", "properties": properties}


def graph(count, entities=400):
    verbs = [("get", "list"), ("post", "create"), ("get", "get"), ("patch", "update"), ("delete", "delete")]
    paths = {}
    made = 0
    tag = 0
    while made < count:
        tag_name = f"area{tag % 35}.resource{tag // 35}"
        for sub in range(6):
            ref = {"$ref": f"#/components/schemas/entity{(tag * 6 + sub) % entities}"}
            collection = f"/area{tag % 35}/resource{tag // 35}/sub{sub}"
            item = collection + "/{id}"
            for path, (method, verb) in zip([collection, collection, item, item, item], verbs):
                if made >= count:
                    break
                made += 1
                op = {
                    "operationId": f"{tag_name}.sub{sub}.{verb}",
                    "summary": f"{verb} sub{sub} of {tag_name}",
                    "tags": [tag_name],
                    "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": ref}}}},
                }
                if path.endswith("{id}"):
                    op["parameters"] = [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
                if method in ("post", "patch"):
                    op["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref}}}
                paths.setdefault(path, {})[method] = op
        tag += 1
    return {
        "openapi": "3.0.3",
        "info": {"title": "Synthetic Graph", "version": "1.0"},
        "servers": [{"url": "https://example.invalid"}],
        "paths": paths,
        "components": {"schemas": {f"entity{n}": graph_entity(n, entities) for n in range(entities)}},
    }


def main():
    if sys.argv[1] == "--graph":
        json.dump(graph(int(sys.argv[2])), sys.stdout)
        return
    count = int(sys.argv[1])
    resources = [f"thing{i}" for i in range((count + 4) // 5)]
    paths = {}
    schemas = {}
    made = 0
    for r in resources:
        cap = r.capitalize()
        schemas[cap] = resource_schema(r)
        ref = {"$ref": f"#/components/schemas/{cap}"}
        ok = lambda schema: {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}}}
        id_param = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "format": "int64"}}
        ops = [
            (f"/{r}s", "get", {"operationId": f"list_{r}s", "summary": f"List {r}s",
                               "parameters": [
                                   {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                                   {"name": "per_page", "in": "query", "schema": {"type": "integer", "maximum": 100}},
                                   {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["active", "archived"]}},
                               ],
                               "responses": ok({"type": "array", "items": ref})}),
            (f"/{r}s", "post", {"operationId": f"create_{r}", "summary": f"Create a {r}",
                                "requestBody": {"required": True, "content": {"application/json": {"schema": ref}}},
                                "responses": ok(ref)}),
            (f"/{r}s/{{id}}", "get", {"operationId": f"get_{r}", "summary": f"Get a {r}",
                                      "parameters": [id_param], "responses": ok(ref)}),
            (f"/{r}s/{{id}}", "put", {"operationId": f"update_{r}", "summary": f"Update a {r}",
                                      "parameters": [id_param],
                                      "requestBody": {"required": True, "content": {"application/json": {"schema": ref}}},
                                      "responses": ok(ref)}),
            (f"/{r}s/{{id}}", "delete", {"operationId": f"delete_{r}", "summary": f"Delete a {r}",
                                         "parameters": [id_param], "responses": ok(ref)}),
        ]
        for path, method, op in ops:
            if made == count:
                break
            paths.setdefault(path, {})[method] = op
            made += 1
    doc = {
        "openapi": "3.0.3",
        "info": {"title": f"Synthetic {count}", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com/v1"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }
    json.dump(doc, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
