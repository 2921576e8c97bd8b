/**
 * A variable read when each render starts rather than when the variables were put together: `this`, the automation's,
 * script's or template entity's own state, must be the state at render time (a run's later steps see the
 * `current` and `last_triggered` its start wrote), not the state when the run began or the trigger attached.
 */
export class LiveVariable {
  constructor(readonly read: () => unknown) {}
}
