"""Settings for the whole suite.

The suite runs on more pytest-xdist workers than cores (README), so one example of a
Hypothesis test can be held up by the scheduler for longer than Hypothesis's 200 ms
per-example deadline without being slow itself. What each property checks is unchanged;
the suite's own time limits (pytest-timeout) still hold."""

from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
