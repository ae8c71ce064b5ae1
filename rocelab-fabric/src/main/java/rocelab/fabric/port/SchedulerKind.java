package rocelab.fabric.port;

/** Scheduling between the eight traffic classes of an egress port. */
public enum SchedulerKind {
    /** Higher class first, always. */
    STRICT,
    /** Classes in the strict set first (highest first), the rest by deficit-weighted round robin. */
    DWRR
}
