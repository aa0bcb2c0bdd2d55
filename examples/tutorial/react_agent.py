"""The tutorial's ReAct agent: every tool's schema on every request, native function calling."""
import inspect
import json

from common import ALL_TOOLS, main

SYSTEM_PROMPT = "You are a helpful agent working in the current folder. Use the tools to act; when you have the answer, reply without calling a tool."


def tool_schema(fn):
    """A tool definition from a function: its name, its docstring, its parameters (all strings)."""
    params = inspect.signature(fn).parameters
    return {
        "type": "function",
        "function": {
            "name": fn.__name__,
            "description": inspect.getdoc(fn),
            "parameters": {
                "type": "object",
                "properties": {name: {"type": "string"} for name in params},
                "required": [n for n, p in params.items() if p.default is inspect.Parameter.empty],
            },
        },
    }


TOOLS = {fn.__name__: fn for fn in ALL_TOOLS}
TOOL_SCHEMAS = [tool_schema(fn) for fn in ALL_TOOLS]


def handle_call(name, arguments):
    if name not in TOOLS:
        return f"Error: tool {name} does not exist; available: {', '.join(TOOLS)}"
    try:
        result = TOOLS[name](**arguments)
        return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
    except Exception as e:  # the model reads the error and tries another way
        return f"Error: {type(e).__name__}: {e}"


if __name__ == "__main__":
    main(SYSTEM_PROMPT, TOOL_SCHEMAS, handle_call)
