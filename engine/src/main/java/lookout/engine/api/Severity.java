package lookout.engine.api;

/** How much an event matters to an operator (ISA-101: only abnormal states draw attention). */
public enum Severity {
    INFO, NOTICE, WARNING, ERROR
}
