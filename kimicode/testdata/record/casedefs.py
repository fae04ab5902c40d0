"""kompact's Kimi Code 2.1.0 cases, recorded into ../vectors by record.sh with the harness of
../shared/kimi-code/harness (its record.py, mock.py and template.py; see its casedefs.py for the
format). usage.prompt_tokens drives Kimi Code's trigger: with max_context_size 100000, a last
usage of 97000 makes the next step compact first."""


def U(p, c=10):
    return {"prompt_tokens": p, "completion_tokens": c}


def SUM(text, out=60):
    return {"text": text, "usage": U(3000, out)}


# Long user input: about 15000 estimator tokens of ASCII log lines, then CJK text, then more
# log lines, so that the kept user messages pass the 20000-token budget (head 2000, tail 18000).
LOG1 = "".join("line %05d: build step %d finished with status ok after %d ms\n" % (i, i % 17, (i * 37) % 1000) for i in range(1000))
CJK = "".join("第%d段：我们需要检查编译器的输出，确认每个模块都已正确链接，并记录所有警告。\n" % i for i in range(150))
LOG2 = "".join("warn %05d: deprecated call in module m%d (see docs/upgrade.md)\n" % (i, i % 23) for i in range(700))

CASES = [
    ("manual_tools_instruction", {
        "description": "Two Read tool calls in one assistant message (one fails), a text answer, then a manual /compact with a custom instruction, then a next prompt.",
        "files": {"plan.txt": "step 1: parse\nstep 2: check\nstep 3: emit\n"},
        "steps": [{"prompt": "Read plan.txt and missing.txt, then tell me step 3."},
                  {"compact": "Keep the file names and the error about missing.txt."},
                  {"prompt": "Which file could not be read?"}],
        "script": {"loop": [{"text": "", "tool_calls": [{"name": "Read", "arguments": {"path": "plan.txt"}},
                                                         {"name": "Read", "arguments": {"path": "missing.txt"}}], "usage": U(11000, 20)},
                            {"text": "Step 3 is: emit. missing.txt does not exist.", "usage": U(12000, 12)},
                            {"text": "missing.txt could not be read.", "usage": U(4000, 8)}],
                   "compaction": [SUM("Read plan.txt (steps: parse, check, emit) and tried missing.txt, which does not exist. Next: answer follow-up questions.", 45)]},
    }),
    ("long_cjk_auto", {
        "description": "Long user messages (ASCII logs and a CJK message) past the 20k kept budget; the fourth prompt auto-compacts first (head, elision note, tail).",
        "steps": [{"prompt": "Here is the first build log:\n" + LOG1}, {"prompt": CJK}, {"prompt": "Second log:\n" + LOG2},
                  {"prompt": "Summarize the warnings in one line."}],
        "script": {"loop": [{"text": "Noted the first log.", "usage": U(16000, 5)}, {"text": "好的，已记录。", "usage": U(20000, 5)},
                            {"text": "Noted the second log.", "usage": U(97000, 5)}, {"text": "Deprecated calls in 23 modules.", "usage": U(24000, 8)}],
                   "compaction": [SUM("用户提供了两份构建日志和一段中文说明。Next: summarize the deprecation warnings.", 50)]},
    }),
    ("todos_two_manual", {
        "description": "A TodoList tool call, a manual /compact without instruction, a TodoList update, a second manual /compact with an instruction (two earlier windows in the footer), then a next prompt.",
        "steps": [{"prompt": "Plan the release with a todo list."}, {"compact": ""},
                  {"prompt": "Mark the changelog done and start the tag."}, {"compact": "Focus on the open todos."},
                  {"prompt": "What is left?"}],
        "script": {"loop": [{"text": "", "tool_calls": [{"name": "TodoList", "arguments": {"todos": [
                                {"title": "Write the changelog", "status": "in_progress"}, {"title": "Tag v1.2.0", "status": "pending"},
                                {"title": "Publish the notes", "status": "pending"}]}}], "usage": U(10000, 30)},
                            {"text": "The plan has three items.", "usage": U(11000, 8)},
                            {"text": "", "tool_calls": [{"name": "TodoList", "arguments": {"todos": [
                                {"title": "Write the changelog", "status": "done"}, {"title": "Tag v1.2.0", "status": "in_progress"},
                                {"title": "Publish the notes", "status": "pending"}]}}], "usage": U(12000, 30)},
                            {"text": "Changelog done; tagging now.", "usage": U(13000, 8)},
                            {"text": "Tag v1.2.0 and publish the notes.", "usage": U(5000, 9)}],
                   "compaction": [SUM("Planned the release: changelog (in progress), tag v1.2.0, publish notes.", 30),
                                  SUM("Changelog done, tag v1.2.0 in progress, notes pending.", 25)]},
    }),
    ("midturn_auto", {
        "description": "A tool call answered with 97000 prompt tokens: the next step of the same turn auto-compacts after the tool result, then the turn goes on; then a next prompt.",
        "files": {"data.csv": "id,value\n1,10\n2,20\n"},
        "steps": [{"prompt": "Read data.csv and sum the values."}, {"prompt": "And the mean?"}],
        "script": {"loop": [{"text": "Reading it.", "tool_calls": [{"name": "Read", "arguments": {"path": "data.csv"}}], "usage": U(97000, 15)},
                            {"text": "The sum is 30.", "usage": U(3000, 6)}, {"text": "The mean is 15.", "usage": U(3500, 6)}],
                   "compaction": [SUM("Reading data.csv (values 10 and 20) to sum them. Next: give the sum.", 35)]},
    }),
    ("large_window_auto", {
        "description": "max_context_size 400000: 345000 prompt tokens trigger (85%), and max_tokens is 131072.",
        "max_context_size": 400000,
        "steps": [{"prompt": "Count to three."}, {"prompt": "Now backwards."}],
        "script": {"loop": [{"text": "1, 2, 3.", "usage": U(345000, 6)}, {"text": "3, 2, 1.", "usage": U(4000, 6)}],
                   "compaction": [SUM("Counted to three. Next: count backwards.", 20)]},
    }),
    ("tools_default_auto", {
        "description": "Every tool of Kimi Code's default set with its result as Kimi Code renders it: Bash (output, no output, a failure, a failure without output), Glob, Grep (a match and none), Read (a file, a missing one, no arguments), Bash with blank output, a tool that does not exist, Write, Edit (a change and a failure), TodoList (an update and a read); the second prompt auto-compacts first, then more tool calls in the rebuilt context, and the third prompt auto-compacts again.",
        "files": {"data.csv": "id,value\n1,10\n2,20\n"},
        "steps": [{"prompt": "Inspect data.csv with the shell and the search tools."},
                  {"prompt": "Now edit it and keep notes."},
                  {"prompt": "What changed?"}],
        "script": {"loop": [{"text": "", "tool_calls": [{"name": "Bash", "arguments": {"command": "cat data.csv"}},
                                                         {"name": "Bash", "arguments": {"command": "true"}},
                                                         {"name": "Bash", "arguments": {"command": "echo broken >&2; exit 3"}},
                                                         {"name": "Bash", "arguments": {"command": "exit 4"}},
                                                         {"name": "Glob", "arguments": {"pattern": "*.csv"}},
                                                         {"name": "Grep", "arguments": {"pattern": "value"}},
                                                         {"name": "Grep", "arguments": {"pattern": "nothing-matches-this"}}], "usage": U(11000, 40)},
                            {"text": "", "tool_calls": [{"name": "Read", "arguments": {"path": "data.csv"}},
                                                         {"name": "Read", "arguments": {"path": "missing.txt"}},
                                                         {"name": "Glob", "arguments": {"pattern": "*.md"}},
                                                         {"name": "Bash", "arguments": {"command": "printf ' \\n'"}},
                                                         {"name": "Read", "arguments": {}},
                                                         {"name": "NoSuchTool", "arguments": {"x": 1}}], "usage": U(12000, 20)},
                            {"text": "data.csv has two rows.", "usage": U(97000, 8)},
                            {"text": "", "tool_calls": [{"name": "Write", "arguments": {"path": "notes.txt", "content": "rows: 2\n"}},
                                                         {"name": "Edit", "arguments": {"path": "data.csv", "old_string": "2,20", "new_string": "2,25"}},
                                                         {"name": "Edit", "arguments": {"path": "data.csv", "old_string": "not there", "new_string": "x"}},
                                                         {"name": "TodoList", "arguments": {"todos": [{"title": "Edit data.csv", "status": "done"},
                                                                                                      {"title": "Check the sum", "status": "pending"}]}}], "usage": U(5000, 40)},
                            {"text": "", "tool_calls": [{"name": "Bash", "arguments": {"command": "cat data.csv notes.txt"}},
                                                         {"name": "TodoList", "arguments": {}}], "usage": U(6000, 20)},
                            {"text": "Edited row 2 and wrote notes.txt.", "usage": U(97000, 9)},
                            {"text": "Row 2 is now 25; notes.txt holds the row count.", "usage": U(4000, 12)}],
                   "compaction": [SUM("Inspected data.csv (id,value; rows 10 and 20) with Bash, Glob, Grep and Read; missing.txt does not exist. Next: edit it.", 40),
                                  SUM("Edited data.csv row 2 to 25, wrote notes.txt, todos: edit done, check pending. Next: say what changed.", 35)]},
    }),
    ("shell_manual", {
        "description": "Shell commands (an output, a blank one, a failure) and the search tools, then a manual /compact without instruction, then a next prompt: Kimi Code resumes a session kompact compacted after shell commands.",
        "files": {"data.csv": "id,value\n1,10\n2,20\n"},
        "steps": [{"prompt": "Run a few commands on data.csv."}, {"compact": ""}, {"prompt": "Which command failed?"}],
        "script": {"loop": [{"text": "Running them.", "tool_calls": [{"name": "Bash", "arguments": {"command": "wc -l data.csv"}},
                                                                      {"name": "Bash", "arguments": {"command": "printf ''"}},
                                                                      {"name": "Bash", "arguments": {"command": "grep -q nothing data.csv"}},
                                                                      {"name": "Glob", "arguments": {"pattern": "*"}},
                                                                      {"name": "Grep", "arguments": {"pattern": "20", "output_mode": "content", "-n": True}}], "usage": U(11000, 40)},
                            {"text": "data.csv has 3 lines; grep found nothing.", "usage": U(12000, 12)},
                            {"text": "grep -q nothing data.csv failed.", "usage": U(4000, 8)}],
                   "compaction": [SUM("Ran wc, an empty printf, a failing grep, Glob and Grep on data.csv. Next: answer questions about the commands.", 40)]},
    }),
    ("tools_more_auto", {
        "description": "More of Kimi Code's default tools: FetchURL that cannot connect (a failure with its wall time), CronList, TaskList and GetGoal with nothing to list, Skill naming no skill; the second prompt auto-compacts first.",
        "steps": [{"prompt": "Check the scheduler, the tasks, the goal and the local server."}, {"prompt": "Anything pending?"}],
        "script": {"loop": [{"text": "", "tool_calls": [{"name": "FetchURL", "arguments": {"url": "http://localhost:9/status"}},
                                                         {"name": "CronList", "arguments": {}},
                                                         {"name": "TaskList", "arguments": {}},
                                                         {"name": "GetGoal", "arguments": {}},
                                                         {"name": "Skill", "arguments": {"skill": "no-such-skill"}}], "usage": U(11000, 30)},
                            {"text": "Nothing is scheduled or running.", "usage": U(97000, 8)},
                            {"text": "Nothing is pending.", "usage": U(4000, 6)}],
                   "compaction": [SUM("Checked cron, tasks, goal and the local server: nothing scheduled, the server is down. Next: say whether anything is pending.", 35)]},
    }),
]
