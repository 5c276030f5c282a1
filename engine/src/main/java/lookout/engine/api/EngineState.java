package lookout.engine.api;

/** Lifecycle of the engine facade. */
public enum EngineState {
    NEW, STARTING, RUNNING, STOPPING, STOPPED, FAILED
}
