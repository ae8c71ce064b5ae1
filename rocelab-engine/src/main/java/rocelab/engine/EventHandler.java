package rocelab.engine;

/** A component that lets simulated time pass: it receives the wake-ups it scheduled on the {@link Simulator}. */
public interface EventHandler {
    /**
     * Called when a wake-up scheduled by this handler is due.
     *
     * @param nowPs the current simulated time in picoseconds
     * @param kind a small constant defined by the handler's class
     * @param arg a value chosen when scheduling (often a timer epoch or a packed pair of ints)
     */
    void onEvent(long nowPs, int kind, long arg);
}
