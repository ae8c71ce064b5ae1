package rocelab.fabric.nic;

/** Completion notifications of posted RDMA messages (the verbs completion queue, seen by the workload). */
public interface MessageListener {
    MessageListener NONE = new MessageListener() {};

    /**
     * The message's first packet left the sender's RNIC (its first transmission; once per message, in post order). A
     * QP sends its messages in the order they were posted, so a message posted while its QP still had packets of
     * earlier ones to send starts after them.
     */
    default void onMessageStarted(long nowPs, int queuePair, long cookie) {}

    /** The receiver placed the last byte of the message in memory. */
    default void onMessageDelivered(long nowPs, int queuePair, long cookie) {}

    /** The sender saw every packet of the message acknowledged (the work completion of an RDMA WRITE). */
    default void onMessageCompleted(long nowPs, int queuePair, long cookie) {}

    /** The QP exhausted its retries and went to the error state; its pending messages will never complete. */
    default void onQueuePairError(long nowPs, int queuePair) {}
}
