#!/usr/bin/env python3
"""Issue 39 item 2: no function in core/ over 80 lines and no file over 500, except generated ones (*.inc).

A function is a brace block opened at namespace or class scope after a signature (a parenthesised parameter list);
it counts from its signature's first line to its closing brace. Member functions defined inside a struct or class
count as well. Comments, string and character literals (raw strings too) are blanked first, so their braces do not
count. Usage: python3 tests/check_sizes.py <core dir>
Prints each offender as `file:line name N lines` and exits 1 if there is any.
"""
import pathlib
import re
import sys

MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 500


def blank_literals(text):
    """The text with comments, string and character literals replaced by spaces (newlines kept, so lines match)."""
    out = []
    i, n = 0, len(text)

    def blank(segment):
        return re.sub(r"[^\n]", " ", segment)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2 : open_paren]
            close = text.find(")" + delimiter + '"', open_paren)
            j = n if close < 0 else close + len(delimiter) + 2
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum())):
            # A quote after and before a digit or letter is a digit separator (1'000'000), not a character literal.
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            i = j
        elif c == "#" and (i == 0 or text[i - 1] == "\n" or text[: i].rsplit("\n", 1)[-1].strip() == ""):
            # A preprocessor line (and its continuations) is neither code nor a signature.
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(blank(text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def depth_zero(header):
    """The header with everything inside parentheses, brackets and angle-free nesting removed."""
    out, depth = [], 0
    for ch in header:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


CONTROL = re.compile(r"^(if|for|while|switch|catch|do|else|return|try)\b")
SCOPE_KEYWORD = re.compile(r"^(?:template\s*<.*>\s*)?(?:typedef\s+)?(struct|class|union|enum)\b", re.S)
ACCESS = re.compile(r"^(?:(?:public|private|protected)\s*:(?!:)\s*)+")


def classify(header):
    """('namespace' | 'class' | 'function' | 'other', name) for a brace opened at namespace or class scope."""
    text = ACCESS.sub("", header.strip())
    if re.match(r"^(inline\s+)?namespace\b", text) or re.match(r'^extern\s*$', text):
        return "namespace", ""
    if re.match(r"^extern\b", text) and "(" not in text:
        return "namespace", ""
    if SCOPE_KEYWORD.match(text) and "(" not in text.split("{")[0]:
        match = re.search(r"\b(?:struct|class|union)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)", text)
        return "class", match.group(1) if match else ""
    if "(" not in text or CONTROL.match(text):
        return "other", ""
    top = depth_zero(text)
    is_lambda = re.search(r"\]\s*(\(|\{|mutable|->)", text) is not None
    if re.search(r"(?<![=!<>])=(?!=)", top) and "operator" not in top:
        if not is_lambda:
            return "other", ""
        match = re.search(r"([A-Za-z_]\w*)\s*=", top)
        return "function", match.group(1) if match else "lambda"
    # The name is the identifier (qualified, or an operator) just before the first top-level parenthesis.
    if re.search(r"\boperator\s*\(\s*\)\s*\(", text):
        return "function", "operator()"
    before = text[: text.index("(")]
    match = re.search(r"(operator\s*\S+|~?[A-Za-z_][\w:~]*)\s*$", before)
    return "function", match.group(1) if match else "?"


def functions(text):
    """(first line, name, line count) of every function in the blanked text."""
    found = []
    stack = []  # (kind, name, header start line) per open brace
    header_start = 0  # offset of the current header at namespace or class scope
    line_of = [0] * (len(text) + 1)
    line = 1
    for i, ch in enumerate(text):
        line_of[i] = line
        if ch == "\n":
            line += 1
    line_of[len(text)] = line
    in_body = 0  # depth of braces inside a function or initializer
    i = 0
    while i < len(text):
        ch = text[i]
        if in_body:
            if ch == "{":
                in_body += 1
            elif ch == "}":
                in_body -= 1
                if in_body == 0:
                    kind, name, start = stack.pop()
                    if kind == "function":
                        found.append((start, name, line_of[i] - start + 1))
                    header_start = i + 1
        elif ch == "{":
            header = text[header_start:i]
            kind, name = classify(header)
            stripped = ACCESS.sub("", header.strip())
            offset = header_start + (len(header) - len(header.lstrip()))
            offset += len(header.strip()) - len(stripped)
            start = line_of[offset] if header.strip() else line_of[i]
            if kind == "function":
                scope = [entry[1] for entry in stack if entry[0] == "class" and entry[1]]
                if scope and "::" not in name:
                    name = "::".join(scope + [name])
            stack.append((kind, name, start))
            if kind in ("function", "other"):
                in_body = 1
            header_start = i + 1
        elif ch == "}":
            if stack:
                stack.pop()
            header_start = i + 1
        elif ch == ";":
            header_start = i + 1
        i += 1
    return found


def main():
    core = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "core").resolve()
    sources = sorted(p for p in core.rglob("*") if p.suffix in (".h", ".cpp"))
    if not sources:
        print(f"check_sizes: no .h or .cpp files under {core}")
        return 1
    offenders = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(core.parent).as_posix()
        found = []
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > MAX_FILE_LINES:
            found.append((1, "(file)", lines, MAX_FILE_LINES))
        for start, function, count in functions(blank_literals(text)):
            if count > MAX_FUNCTION_LINES:
                found.append((start, function, count, MAX_FUNCTION_LINES))
        offenders += [f"{name}:{start} {what} {count} lines (over {limit})" for start, what, count, limit in found]
    if offenders:
        print(f"check_sizes: over {MAX_FUNCTION_LINES} lines per function or {MAX_FILE_LINES} per file:")
        print("\n".join(offenders))
        return 1
    print(f"check_sizes: {len(sources)} files, every function at most {MAX_FUNCTION_LINES} lines and every file at "
          f"most {MAX_FILE_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
