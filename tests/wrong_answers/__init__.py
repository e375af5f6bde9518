"""Plausible wrong answers, one module each: EXERCISE, EXPECT (a phrase of the failure) and answer."""
