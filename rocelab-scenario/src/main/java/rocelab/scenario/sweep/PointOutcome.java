package rocelab.scenario.sweep;

import java.io.Serializable;

/**
 * What one point left: its summary.json text when it ran, or the error that stopped it. Plain data, so a Spark task
 * can return it to the driver.
 *
 * @param id the point's id
 * @param summaryJson the run's summary.json, or null when it failed
 * @param error why the point failed (one line), or null
 */
public record PointOutcome(String id, String summaryJson, String error) implements Serializable {
    private static final long serialVersionUID = 1L;

    public static PointOutcome completed(String id, String summaryJson) {
        return new PointOutcome(id, summaryJson, null);
    }

    public static PointOutcome failed(String id, String error) {
        return new PointOutcome(id, null, error);
    }

    public boolean ok() {
        return summaryJson != null;
    }
}
