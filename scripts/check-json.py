#!/usr/bin/env python3
"""Checks JSON Lines against one of Pickup's schemas (docs/json-schema).

  check-json.py SCHEMA FILE.jsonl     every line must be valid; prints each one that is not

Uses the `jsonschema` package (scripts/setup.sh installs it into .build/python).
"""
import json
import os
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def main():
    schema_path, lines_path = sys.argv[1], sys.argv[2]
    folder = os.path.dirname(os.path.abspath(schema_path))
    resources = []
    for name in os.listdir(folder):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as handle:
                contents = json.load(handle)
            resources.append((contents["$id"], Resource.from_contents(contents)))
    with open(schema_path) as handle:
        schema = json.load(handle)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, registry=Registry().with_resources(resources))
    bad = 0
    count = 0
    with open(lines_path) as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            count += 1
            value = json.loads(line)
            errors = sorted(validator.iter_errors(value), key=lambda error: error.path)
            if errors:
                bad += 1
                best = min(errors, key=lambda error: len(list(error.absolute_path)))
                print(f"{lines_path}:{number}: {best.message[:300]}\n  {line.strip()[:300]}")
    print(f"{count - bad} of {count} lines valid against {os.path.basename(schema_path)}")
    sys.exit(1 if bad or count == 0 else 0)


if __name__ == "__main__":
    main()
