package rocelab.fabric.nic;

/**
 * A fault to inject: the RNIC of {@code host} sends PFC XOFF for {@code priority} continuously from
 * {@code startPs} for {@code durationPs}, as an RNIC whose receive pipeline is stuck does (a pause storm).
 */
public record PauseStormFault(int host, long startPs, long durationPs, int priority) {
    public PauseStormFault {
        if (startPs < 0 || durationPs <= 0) {
            throw new IllegalArgumentException("a pause storm needs start >= 0 and a positive duration");
        }
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("priority must be 0..7, got " + priority);
        }
    }
}
