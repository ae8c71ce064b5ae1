package rocelab.workload.graph;

/**
 * The network of ideal-network mode: each host's RNIC sends one message after the other at its line rate (with
 * real frame overhead), and a message is delivered after the path's fixed latency: no queueing, no congestion,
 * no loss. This is the alpha-beta model every closed form of a collective assumes.
 */
public interface IdealTransfers {
    /** How long sending {@code bytes} keeps the source's RNIC busy. */
    long senderBusyPs(int src, int dst, long bytes);

    /** From the first byte leaving until the receiver has the last one. */
    long deliveryPs(int src, int dst, long bytes);

    /** From the first byte leaving until the sender has the last ACK. */
    long acknowledgedPs(int src, int dst, long bytes);
}
