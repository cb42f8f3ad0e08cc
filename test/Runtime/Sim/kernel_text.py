"""The body of a generated test kernel, written as text: one SSA value per distinct op text
(every op the generators write is pure or is written once), for gen_mma.py, gen_ldmatrix.py
and gen_wgmma.py."""


class Body:
    def __init__(self):
        self.lines, self._seen, self._count = [], {}, 0

    def new(self, text, name=None):
        """The value of `text`, written once as `%vN = text` (or `name = text`)."""
        if text not in self._seen:
            if name is None:
                self._count += 1
            self._seen[text] = name or f"%v{self._count}"
            self.lines.append(f"{self._seen[text]} = {text}")
        return self._seen[text]

    def const(self, v):
        """An si32 constant in the uop dialect."""
        return self.new(f"uop.const {v} : si32")
