"""Code extraction from model answers."""

from __future__ import annotations

from agent.loop.extract import extract_code

HE_PROMPT = 'from typing import List\n\n\ndef below_zero(operations: List[int]) -> bool:\n    """True if..."""\n'


def test_single_fenced_block_with_prose():
    code, err = extract_code("Sure!\n```python\ndef f():\n    return 1\n```\nThis returns 1.", entry_point="f")
    assert err is None and code == "def f():\n    return 1\n"


def test_several_blocks_pick_the_one_defining_the_entry_point():
    answer = ("First a helper:\n```python\nimport math\n```\nThen:\n```python\ndef area(r):\n"
              "    return math.pi * r * r\n```\nUsage:\n```python\nprint(area(2))\n```")
    code, _ = extract_code(answer, entry_point="area")
    assert "def area(r)" in code and "print(area" not in code


def test_unlabelled_and_py_fences():
    assert extract_code("```\ndef g():\n    pass\n```", entry_point="g")[0].startswith("def g")
    assert extract_code("```py\ndef g():\n    pass\n```", entry_point="g")[0].startswith("def g")


def test_other_language_fence_is_ignored():
    code, err = extract_code("```bash\npip install x\n```\n```python\ndef g():\n    return 2\n```", entry_point="g")
    assert "pip" not in code and "def g" in code


def test_unterminated_fence_when_generation_hit_the_token_cap():
    code, err = extract_code("```python\ndef f(x):\n    return x + 1\n", entry_point="f")
    assert err is None and "return x + 1" in code


def test_bare_code_with_stray_prose_around_it():
    answer = "Here is the function:\ndef f(x):\n    return x * 2\nIt doubles x."
    code, err = extract_code(answer, entry_point="f")
    assert err is None and code.strip() == "def f(x):\n    return x * 2"


def test_body_only_answer_gets_the_prompt_signature():
    answer = "```python\n    for op in operations:\n        if op < 0:\n            return True\n    return False\n```"
    code, err = extract_code(answer, entry_point="below_zero", task=HE_PROMPT)
    assert err is None
    assert code.startswith("from typing import List") and "def below_zero(operations: List[int]) -> bool:" in code
    assert code.rstrip().endswith("return False")


def test_answer_repeating_signature_gets_missing_imports():
    answer = "```python\ndef below_zero(operations: List[int]) -> bool:\n    return any(o < 0 for o in operations)\n```"
    code, _ = extract_code(answer, entry_point="below_zero", task=HE_PROMPT)
    assert code.startswith("from typing import List\n")


def test_top_level_example_asserts_are_dropped():
    answer = "```python\ndef f(x):\n    return x\n\nassert f(1) == 2\nassert f(2) == 2\n```"
    code, _ = extract_code(answer, entry_point="f")
    assert "assert" not in code and "return x" in code


def test_no_code_gives_a_reason():
    assert extract_code("", entry_point="f") == (None, "the answer was empty")
    assert extract_code("I cannot help with that request.", entry_point="f") == (
        None, "the answer contains no Python code")


def test_an_offered_package_used_by_its_usual_name_gets_its_import(monkeypatch):
    from agent.loop import extract

    code = "def col_means(rows):\n    return np.mean(rows, axis=0).tolist()\n"
    assert extract.add_missing_imports(code).startswith("import numpy as np\n")  # numpy is offered by default
    # A package the sandbox does not offer gets no import: the run names it missing instead.
    monkeypatch.setattr(extract, "module_offered", lambda name: False)
    assert extract.add_missing_imports(code) == code
    # A name the code binds itself is left alone.
    assert extract.add_missing_imports("np = 3\ndef f():\n    return np\n").startswith("np = 3")
