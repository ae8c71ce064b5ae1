package rocelab.workload.job;

/** A program that cannot run as written (a group member missing, a send without its receive, ...), at a step. */
public final class JobException extends RuntimeException {
    private final transient Step.Meta meta;

    public JobException(Step.Meta meta, String message) {
        super(message);
        this.meta = meta;
    }

    /** The step the problem is at. */
    public Step.Meta meta() {
        return meta;
    }
}
