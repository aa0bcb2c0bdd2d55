"""What both tutorial agents share: the six tools, the model call and the loop.

The agents run as columns of a Parallax comparison (examples/tutorial-agents.json). Parallax starts them in
the run's own copy of the task's files and sets OPENAI_BASE_URL, OPENAI_API_KEY (a per-run token for its
recording proxy), PARALLAX_MODEL and PARALLAX_TASK. Only the final answer goes to standard output; the steps
are written to standard error.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from datetime import datetime

MAX_STEPS = 10
MAX_RESULT_CHARS = 4000


def list_dir(path="."):
    """List the names of the files and folders in a directory (default: the current one)."""
    return sorted(os.listdir(path))


def read_file(path):
    """Read a text file and return its content as a string."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_file(path, content):
    """Write text to a file (it is created or replaced) and return how many characters were written."""
    with open(path, "w", encoding="utf-8") as f:
        return f.write(content)


def run_shell(command):
    """Run a shell command and return {"exit_code", "stdout", "stderr"}; it is stopped after 15 seconds."""
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=15)
    return {"exit_code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}


def fetch_url(url):
    """Download a web page and return {"status", "content_type", "text"} (a dict, not a string)."""
    with urllib.request.urlopen(url, timeout=20) as res:
        body = res.read(200_000).decode("utf-8", errors="replace")
        return {"status": res.status, "content_type": res.headers.get("content-type", ""), "text": body}


def current_time(timezone="UTC"):
    """Return the current date and time in an IANA time zone such as "Asia/Shanghai", as ISO 8601 text."""
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo(timezone)).isoformat(timespec="seconds")


ALL_TOOLS = [list_dir, read_file, write_file, run_shell, fetch_url, current_time]


def chat(messages, tools):
    """One request to the model (chat completions): returns its message and the usage it reported."""
    url = os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions"
    body = json.dumps({"model": os.environ.get("PARALLAX_MODEL", "sim"), "messages": messages, "tools": tools}).encode()
    req = urllib.request.Request(url, data=body, headers={
        "Content-Type": "application/json",
        "Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}",
    })
    try:
        reply = json.load(urllib.request.urlopen(req, timeout=120))
    except urllib.error.HTTPError as e:
        sys.exit(f"the model request failed with {e.code}: {e.read().decode(errors='replace')[:500]}")
    return reply["choices"][0]["message"], reply["usage"]


def truncate(text):
    if len(text) <= MAX_RESULT_CHARS:
        return text
    return text[:MAX_RESULT_CHARS] + f"\n...[truncated: {len(text)} characters]"


def run_agent(task, system_prompt, tools, handle_call):
    """Ask, run the calls, repeat, until the model answers without calling a tool."""
    messages = [{"role": "system", "content": system_prompt}, {"role": "user", "content": task}]
    for step in range(1, MAX_STEPS + 1):
        message, usage = chat(messages, tools)
        messages.append(message)
        print(f"step {step}: prompt {usage['prompt_tokens']}, completion {usage['completion_tokens']}", file=sys.stderr)
        if not message.get("tool_calls"):
            return message.get("content") or ""
        for call in message["tool_calls"]:
            name = call["function"]["name"]
            try:
                arguments = json.loads(call["function"]["arguments"] or "{}")
            except json.JSONDecodeError as e:
                result = f"Error: the arguments are not valid JSON ({e})"
            else:
                result = handle_call(name, arguments)
            print(f"  {name}({json.dumps(arguments, ensure_ascii=False)[:80]}) -> {len(result)} chars", file=sys.stderr)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": truncate(result)})
    sys.exit(f"stopped: no answer after {MAX_STEPS} steps")


def main(system_prompt, tools, handle_call):
    task = " ".join(sys.argv[1:]) or os.environ.get("PARALLAX_TASK", "")
    if not task:
        sys.exit("give the task as arguments, or set PARALLAX_TASK")
    print(run_agent(task, system_prompt, tools, handle_call).strip())
