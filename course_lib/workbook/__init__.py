"""The workbook: what exercises and lessons exist and how they are built, run and graded.

| module | job |
|---|---|
| `ids` | the one exercise-id type: its grammar and every name derived from it |
| `manifest` | the lesson manifest (`lessons.toml`): lessons, their files, servers, checkers, exercises |
| `outcomes` | a check's outcome as data, recorded where the check runs |
| `build` | student notebooks generated from solution notebooks |
| `runner` | running a notebook (execute in place, or check it under nbval) |
| `grading` | grading a folder of submissions in worker processes; CSV and HTML |
"""
