/**
 * The minimal SQL executor both backends provide. Statements use `?` placeholders;
 * the PostgreSQL executor renumbers them. Atomic work is a batch of statements,
 * which both engines can run as one transaction without async interleaving.
 */
export type Row = Record<string, unknown>;
export type Param = string | number | null;

export interface GuardedStatement {
  sql: string;
  params: Param[];
  /** Roll the whole transaction back when this statement changes no row. */
  mustChange?: boolean;
}

export interface SqlExecutor {
  readonly kind: string;
  all(sql: string, params?: Param[]): Promise<Row[]>;
  /**
   * `all`, each row an array of its columns in the order selected. For a page of many
   * rows: making each row an object, column by column, costs more than reading it.
   */
  allArrays(sql: string, params?: Param[]): Promise<unknown[][]>;
  get(sql: string, params?: Param[]): Promise<Row | undefined>;
  /** Runs one statement; resolves to the number of rows it changed. */
  run(sql: string, params?: Param[]): Promise<number>;
  batch(statements: { sql: string; params: Param[] }[]): Promise<void>;
  /**
   * One write transaction that holds only if every statement marked `mustChange`
   * changed at least one row; otherwise it is rolled back and the answer is null.
   * This is how a limit is a single conditional write, never a read then a write.
   * Resolves to the rows each statement changed.
   */
  write(statements: GuardedStatement[]): Promise<number[] | null>;
  /**
   * `write` for work no request waits on (the activity record), run where it cannot
   * hold up the requests being served: for SQLite, whose writes block the event loop,
   * on a worker thread's connection; for PostgreSQL, as `write`.
   */
  writeAside(statements: GuardedStatement[]): Promise<number[] | null>;
  close(): Promise<void>;
}
