package rocelab.observe.journey;

import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.probe.PfcReason;

/**
 * One step of a flow's journey. {@code node} and {@code port} say where (a host for RNIC steps), {@code psn} which
 * packet, {@code value} a depth in bytes or a rate in bit/s depending on the kind, {@code flag} a kind detail, and
 * {@code cause} what the step carried about its cause (null for steps without one).
 */
public record JourneyEvent(long timePs, Kind kind, int node, int port, long psn, long value, boolean flag,
        String detail, Cause cause) {

    public JourneyEvent(long timePs, Kind kind, int node, int port, long psn, long value, boolean flag,
            String detail) {
        this(timePs, kind, node, port, psn, value, flag, detail, null);
    }

    /** What happened. */
    public enum Kind { SEND, ENQUEUE, MARK, DROP, DATA_ARRIVED, ACK_ARRIVED, NAK_ARRIVED, CNP_SENT, CNP_HANDLED,
        RATE, PAUSED, RESUMED, WAITED, CREDIT_WAIT, RECOVERY, LINK, COMPLETED, ECMP_COLLISION, ECMP_WAIT,
        CNP_WITHHELD }

    /** The identity a step carried. */
    public sealed interface Cause permits Notice, RateChange, Wait, CreditWait, Pause, Recovery, Resend, LinkChange,
            EcmpCollision, EcmpWait, BufferHeld, WatchdogDrop {}

    /**
     * A congestion notification as its packet carried it: its number among the QP's notifications, when its first
     * bit left the notifying RNIC, the PSN of the CE-marked data packet it answers, and where and when that packet
     * was first marked (markNode -1: unknown), and whether a PFC pause held that packet at the port that marked it.
     */
    public record Notice(long number, long sentPs, long psn, int markNode, int markPort, long markAtPs,
            boolean markHeldByPause) implements Cause {}

    /**
     * A change of the sending rate or window as the congestion control reported it, with its cause and the cause's
     * details ({@link RateCause}); {@code dataWaiting}: the QP had data left to send at that moment.
     */
    public record RateChange(long fromBps, long toBps, long windowBytes, RateCause cause, long value, int index,
            boolean dataWaiting) implements Cause {}

    /**
     * A wait behind a pause at a transmitter: the interval on its paused-time clock, the priority, when the peer
     * sent the XOFF that last paused it (-1: unknown), and whether what waited was the flow's last ACK (on its way
     * back to the sender) rather than its data.
     */
    public record Wait(int priority, long fromClockPs, long toClockPs, long xoffSentPs, boolean acks)
            implements Cause {}

    /**
     * InfiniBand: a wait for credits at a transmitter (a switch egress port, or an HCA), as the transmitter reported it:
     * the lane, the interval on that lane's credit-stall clock, the packet that reported it ({@code psn}; at an HCA the
     * packet that waited, at a switch the first of the flow's packets to leave after the stall), and whether what
     * waited was the flow's last ACK rather than its data. The credits are the next hop's: the buffer of the lane at
     * the far end of the transmitter's link. {@code root} is what that buffer held, as the credit update that ended
     * the lane's last stall carried it (a packed {@code rocelab.fabric.flowcontrol.credit.CreditRoot}; -1: none).
     */
    public record CreditWait(int vl, long fromClockPs, long toClockPs, long psn, boolean acks, long root)
            implements Cause {}

    /**
     * Why a device sent a PFC frame, as it decided when it sent it, with the XOFF threshold then and its shared pool's
     * use and size (-1: an RNIC).
     */
    public record Pause(PfcReason reason, long thresholdBytes, long poolUsedBytes, long poolBytes) implements Cause {}

    /**
     * The QP started to recover lost packets, as it reported it: its {@code number} among the QP's recoveries, after
     * its local ACK timeout ({@code timeout}) or a NAK, go-back-N or {@code selective}; the first PSN it sends again
     * (-1: none), the highest it had sent, how many it means to send again; for a timeout, when its timer started,
     * since when nothing new was acknowledged (earlier than the timer's start when its last firing restarted it), and
     * the retry it starts (above {@code retryLimit}: the retries are spent and the QP fails).
     */
    public record Recovery(int number, boolean timeout, boolean selective, long fromPsn, long sentThroughPsn,
            long packets, long timerStartPs, long noAckSincePs, long timeoutPs, int retry, int retryLimit)
            implements Cause {
        /** Whether the timer that fired had been restarted by its own previous firing (not by a send, ACK or NAK). */
        public boolean restartedByFiring() {
            return timerStartPs > noAckSincePs;
        }

        /** Whether the timeout found the retries spent: the QP failed instead of recovering. */
        public boolean failed() {
            return timeout && retry > retryLimit;
        }
    }

    /**
     * A link went down or came back up (a scenario's link event): the event's node and port are one end, these the
     * other.
     */
    public record LinkChange(int peerNode, int peerPort, boolean up) implements Cause {}

    /**
     * An ECMP collision as the switch decided it when the packet joined its queue ({@code rocelab.fabric.probe
     * .EcmpProbe}): the switch had hashed the packet onto this port among equal-cost ports, the queue of its class
     * ({@code tc}) held {@code queueBytes}, a data packet of flow {@code aheadFlow} was queued ahead (on queue pair
     * {@code aheadQp}, PSN {@code aheadPsn}; directly ahead when {@code directly}, else the oldest queued), and equal-cost port {@code idlePort} had been idle for {@code idlePs}; {@code acks}:
     * the packet was the flow's last ACK; {@code fellIdle}: the packet was already queued when the idle port fell idle
     * (the switch looked then), {@code queueBytes} the bytes ahead of it then.
     */
    public record EcmpCollision(int tc, long queueBytes, long aheadFlow, int aheadQp, long aheadPsn, boolean directly,
            int idlePort, long idlePs, boolean acks, boolean fellIdle) implements Cause {}

    /**
     * The packet of a collision left its queue (or was still in it at the run's end): its wait there from
     * {@code fromPs} to {@code toPs} on the queue's clock of time not held by PFC or credits, the part of it beyond
     * the flow's earlier waits at this hop ({@code newPs}: what it adds to the flow's {@code ecmp_wait_us}), and the
     * collision it joined the queue behind (null when the collision was not recorded).
     */
    public record EcmpWait(int tc, long fromPs, long toPs, long newPs, boolean acks, EcmpCollision collision,
            long enqueuedPs) implements Cause {}

    /**
     * A drop for a full shared buffer, and what held that buffer at that moment as the switch counted it: the egress
     * queue holding the most of it, output {@code port}'s queue of class {@code tc} with {@code bytes}, of
     * {@code poolUsedBytes} in use in a shared pool of {@code poolBytes} ({@code port} -1: the buffer held nothing);
     * {@code ownBytes}, what the drop's own port's queue of that class held then (a tie with the holder is told);
     * {@code headroomUsedBytes}, what the lossless priorities' headroom held besides the pool: a queue's bytes count
     * both, so with headroom in use the holder can hold more than the pool has in use.
     */
    public record BufferHeld(int port, int tc, long bytes, long poolUsedBytes, long poolBytes, long ownBytes,
            long headroomUsedBytes) implements Cause {}

    /**
     * A drop by the PFC watchdog: the queue of class {@code priority} it was in (or headed for) was stuck in a pause
     * storm, held paused by the PFC frame the peer sent at {@code xoffSentPs} (-1: unknown), which names that pause,
     * and its root, in the PFC log.
     */
    public record WatchdogDrop(int priority, long xoffSentPs) implements Cause {}

    /** A packet sent again, and the recovery (its number) whose re-sending it is. */
    public record Resend(int recovery) implements Cause {}
}
