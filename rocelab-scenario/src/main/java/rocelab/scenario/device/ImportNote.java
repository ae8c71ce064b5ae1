package rocelab.scenario.device;

/**
 * Something an imported switch configuration holds that rocelab did not apply, and why.
 *
 * @param file the imported file as the scenario names it
 * @param text what was not applied and why
 * @param unrelated true for whole tables that have nothing to do with RoCE QoS (VLANs, BGP, ...)
 */
public record ImportNote(String file, String text, boolean unrelated) {}
