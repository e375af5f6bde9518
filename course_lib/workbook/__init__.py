"""The workbook: what exercises and lessons exist and how they are built, run and graded.

| module | job |
|---|---|
| `ids` | the one exercise-id type: its grammar and every name derived from it |
| `manifest` | the lesson manifest (`lessons.toml`): lessons, their files, servers, checkers, exercises |
| `outcomes` | a check's outcome as data, recorded where the check runs |
| `build` | student notebooks generated from solution notebooks |
| `completeness` | the manifest compared with the course folder, checkers and hints (above all three) |
| `runner` | running a notebook: execute it in place, or check it across the grading boundary |
| `boundary` | the grading boundary: the learner's answer in the kernel, reached by the checker in the grader |
| `kernel` | a submission's kernel: started confined, run cell by cell, watched, stopped |
| `sandbox` | the confinement of a submission's kernel (bubblewrap, limits), and what a platform gets |
| `grading` | grading a folder of submissions in worker processes; CSV, HTML and Gradescope's results.json |
| `release` | what leaves the course folder: the student release and the Gradescope autograder |
"""
