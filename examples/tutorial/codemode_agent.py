"""The tutorial's Code Mode agent: one run_code tool; the model writes a Python program that calls the tools."""
import contextlib
import inspect
import io
import re
import traceback

from common import ALL_TOOLS, list_dir, main, read_file, run_shell, write_file

SYSTEM_PROMPT = "You are a helpful agent working in the current folder. Solve the task by writing Python programs for run_code; when you have the answer, reply without calling a tool."

# The short catalog: the common tools by their one-line signatures; the rest are found with search_tools.
QUICK_INDEX = [list_dir, read_file, write_file, run_shell]


class ToolHandle:
    """A tool found by search_tools: call it like the function, or print(handle.describe()) for its docs."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def describe(self):
        return f"{self.name}{inspect.signature(self.fn)}\n{inspect.getdoc(self.fn)}"

    def __repr__(self):
        return f"<tool {self.name}{inspect.signature(self.fn)}>"


def search_tools(query):
    """Keyword search over the tools' names and docstrings; returns up to 5 handles, best first."""
    words = re.findall(r"\w+", query.lower())
    scored = []
    for fn in ALL_TOOLS:
        haystack = (fn.__name__.replace("_", " ") + " " + (fn.__doc__ or "")).lower()
        score = sum(word in haystack for word in words) + (10 if fn.__name__ == query.strip() else 0)
        if score:
            scored.append((score, fn))
    scored.sort(key=lambda pair: -pair[0])
    return [ToolHandle(fn) for _, fn in scored[:5]]


def signature_line(fn):
    return f"- {fn.__name__}{inspect.signature(fn)}"


RUN_CODE_DESCRIPTION = "\n".join([
    "Run a Python program. Only what it print()s is returned to you, so filter and summarize inside the code",
    "instead of printing raw data. Each call starts with a fresh namespace.",
    "Available functions:",
    *[signature_line(fn) for fn in QUICK_INDEX],
    "- search_tools(query) -> list of tool handles for other tools; call a handle like a function,",
    "  or print(handle.describe()) for its docs.",
    "Example: fetch = search_tools('download web page')[0]; print(fetch('https://example.com'))",
])

TOOL_SCHEMAS = [{
    "type": "function",
    "function": {
        "name": "run_code",
        "description": RUN_CODE_DESCRIPTION,
        "parameters": {"type": "object", "properties": {"code": {"type": "string", "description": "The Python program."}}, "required": ["code"]},
    },
}]


def run_code(code):
    namespace = {fn.__name__: fn for fn in QUICK_INDEX}
    namespace["search_tools"] = search_tools
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<model code>", "exec"), namespace)
    except Exception as e:
        # Name the line of the model's own program, not ours.
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<model code>"]
        where = f" at line {frames[-1].lineno}" if frames else ""
        lines = code.splitlines()
        shown = f": {lines[frames[-1].lineno - 1].strip()}" if frames and 0 < frames[-1].lineno <= len(lines) else ""
        return out.getvalue() + f"Error{where}{shown}\n{type(e).__name__}: {e}"
    return out.getvalue() or "(no output -- use print() to return results)"


def handle_call(name, arguments):
    if name != "run_code":
        return f"Error: tool {name} does not exist; the only tool is run_code"
    code = arguments.get("code")
    if not isinstance(code, str):
        return "Error: run_code takes {\"code\": \"<a Python program>\"}"
    return run_code(code)


if __name__ == "__main__":
    main(SYSTEM_PROMPT, TOOL_SCHEMAS, handle_call)
