// The YINSH board (RULES.md §1): its 85 points, their lines and where they are drawn.
//
// A point is a column letter `a`–`k` and a row number `1`–`11` ("e5"). Internally a
// point is a cell: column index c (a = 0 … k = 10) and row r (1 … 11).

/** The column letters, left to right. */
export const COLUMNS = "abcdefghijk";

/** The centre of the board; the view is flipped around it. */
export const CENTRE = "f6";

/** A point as numbers: column index c (a = 0 … k = 10) and row r (1 … 11). */
export interface Cell {
  readonly c: number;
  readonly r: number;
}

/** One of the three line directions (G3), as a step of the cell. */
export type Direction = readonly [dc: number, dr: number];

/** Same column, same row, and the diagonal that raises column and row together. */
export const DIRECTIONS: readonly Direction[] = [
  [0, 1],
  [1, 0],
  [1, 1],
];

/** Whether the cell is on the board (G2: the hexagon of radius 5 minus its corners). */
export function isValidCell(c: number, r: number): boolean {
  if (!Number.isInteger(c) || !Number.isInteger(r)) return false;
  // With column a = 1: dc = (c + 1) − 6.
  const dc = c - 5;
  const dr = r - 6;
  const d = [Math.abs(dc), Math.abs(dr), Math.abs(dc - dr)];
  return Math.max(...d) <= 5 && d.filter((v) => v === 5).length <= 1;
}

/** The name of a cell ("e5"); the cell is not checked. */
export function pointName(c: number, r: number): string {
  return `${COLUMNS[c]}${r}`;
}

/** The cell of a point name (either case), or null when it is not a point of the board. */
export function parsePoint(name: string): Cell | null {
  const m = /^([a-k])(\d{1,2})$/.exec(name.toLowerCase());
  if (!m) return null;
  const c = COLUMNS.indexOf(m[1]);
  const r = Number(m[2]);
  return isValidCell(c, r) ? { c, r } : null;
}

/** Whether the name is one of the 85 points. */
export function isPoint(name: string): boolean {
  return parsePoint(name) !== null;
}

function cellOf(name: string): Cell {
  const cell = parsePoint(name);
  if (!cell) throw new Error(`not a point of the board: ${name}`);
  return cell;
}

/** All 85 points, column by column from a, each column from its lowest row up. */
export const POINTS: readonly string[] = (() => {
  const points: string[] = [];
  for (let c = 0; c < 11; c++) {
    for (let r = 1; r <= 11; r++) {
      if (isValidCell(c, r)) points.push(pointName(c, r));
    }
  }
  return points;
})();

/** Cos 30°: the horizontal distance between neighbouring columns, in units of the step. */
const COLUMN_STEP = Math.sqrt(3) / 2;

/**
 * Where a point is drawn, for a distance `size` between neighbouring points:
 * x = c·(√3/2)·size, y = (c/2 − r)·size. SVG's y grows downward, so rows rise upward and
 * columns run left to right; rows slope down to the right.
 */
export function pointXY(name: string, size: number): { x: number; y: number } {
  const { c, r } = cellOf(name);
  return { x: c * COLUMN_STEP * size, y: (0.5 * c - r) * size };
}

/**
 * The point drawn nearest to (x, y) (the coordinates of `pointXY` for the same `size`),
 * when it lies within `maxDistance`; otherwise null.
 */
export function nearestPoint(x: number, y: number, size: number, maxDistance: number): string | null {
  // Invert pointXY, round to the nearest cell, then look at it and its neighbours:
  // rounding c and r separately can miss the nearest point of a triangular lattice.
  const c0 = Math.round(x / (COLUMN_STEP * size));
  const r0 = Math.round(0.5 * c0 - y / size);
  let best: string | null = null;
  let bestDistance = maxDistance;
  for (let c = c0 - 1; c <= c0 + 1; c++) {
    for (let r = r0 - 1; r <= r0 + 1; r++) {
      if (!isValidCell(c, r)) continue;
      const p = pointXY(pointName(c, r), size);
      const distance = Math.hypot(p.x - x, p.y - y);
      if (distance <= bestDistance) {
        best = pointName(c, r);
        bestDistance = distance;
      }
    }
  }
  return best;
}

/** The up to six points next to a point along the lines. */
export function neighbours(name: string): string[] {
  const { c, r } = cellOf(name);
  const result: string[] = [];
  for (const [dc, dr] of DIRECTIONS) {
    for (const sign of [1, -1]) {
      if (isValidCell(c + sign * dc, r + sign * dr)) result.push(pointName(c + sign * dc, r + sign * dr));
    }
  }
  return result;
}

/**
 * The points from `a` to `b`, both included, in that order, when the two are different
 * points on one line; otherwise null. (The board is convex along its lines, so every
 * point in between exists.)
 */
export function lineOf(a: string, b: string): string[] | null {
  const from = parsePoint(a);
  const to = parsePoint(b);
  if (!from || !to) return null;
  const dc = to.c - from.c;
  const dr = to.r - from.r;
  // On a line: same column, same row, or equal steps of column and row (not (1,−1)).
  if ((dc === 0 && dr === 0) || (dc !== 0 && dr !== 0 && dc !== dr)) return null;
  const steps = Math.max(Math.abs(dc), Math.abs(dr));
  const result: string[] = [];
  for (let i = 0; i <= steps; i++) {
    result.push(pointName(from.c + (dc / steps) * i, from.r + (dr / steps) * i));
  }
  return result;
}

/** The points strictly between `a` and `b` on their line (none for neighbours), or null when they are not on one line. */
export function between(a: string, b: string): string[] | null {
  const line = lineOf(a, b);
  return line ? line.slice(1, -1) : null;
}

/** One whole line of the board: its direction and its points in the direction's order. */
export interface Line {
  readonly direction: Direction;
  readonly points: readonly string[];
}

/**
 * The 33 lines of the board (G3): the 11 columns from a to k, the 11 rows from 1 to 11,
 * then the 11 diagonals from the lower right (g2–j5) to the upper left (b7–e10).
 */
export const LINES: readonly Line[] = DIRECTIONS.flatMap((direction) => {
  const [dc, dr] = direction;
  const lines: { key: number; line: Line }[] = [];
  for (const start of POINTS) {
    const { c, r } = cellOf(start);
    if (isValidCell(c - dc, r - dr)) continue; // not the first point of its line
    const points: string[] = [];
    for (let i = 0; isValidCell(c + i * dc, r + i * dr); i++) points.push(pointName(c + i * dc, r + i * dr));
    // Columns are ordered by column, rows by row, diagonals by row minus column.
    const key = dc === 0 ? c : dr === 0 ? r : r - c;
    lines.push({ key, line: { direction, points } });
  }
  return lines.sort((x, y) => x.key - y.key).map((x) => x.line);
});
