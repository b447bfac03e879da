"""ArrayMatrix: arrays nested three deep (typia ``ArrayMatrix``)."""

from __future__ import annotations

from llmapp import llm_application

Matrix = list[list[list[float]]]


@llm_application
class ArrayMatrixApplication:
    """Three-dimensional matrices through the three catalogue methods."""

    def insert(self, first: Matrix) -> None:
        """Store one matrix.

        Args:
            first: The matrix to store.
        """

    def reduce(self, first: Matrix, second: Matrix | None) -> Matrix:
        """Keep the second matrix when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Matrix | None, second: Matrix | None, third: Matrix | None = None
    ) -> Matrix | None:
        """The first matrix given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ArrayMatrixApplication

SAMPLE = [[[float(i + j + k) for k in range(3)] for j in range(2)] for i in range(2)]

ALSO_VALID = [[], [[]], [[[]]]]

SPOILERS = [
    ((0, 1, 2), "x", [("$input[0][1][2]", "number")]),
    ((1, 0), 5, [("$input[1][0]", "Array<number>")]),
    ((1,), {}, [("$input[1]", "Array<Array<number>>")]),
    ((), {"0": []}, [("$input", "Array<Array<Array<number>>>")]),
]
