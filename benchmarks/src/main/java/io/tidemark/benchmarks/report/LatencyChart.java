package io.tidemark.benchmarks.report;

import java.util.Locale;
import java.util.Map;

/**
 * An SVG chart of latency distributions: one cumulative curve per series (share of writes whose
 * read had returned by a given time after the commit acknowledgement), x up to the largest p95 so
 * that a few outliers do not squash the curves (slower reads end on the right edge). Built as plain
 * text, no library.
 */
public final class LatencyChart {

  private static final int WIDTH = 760;
  private static final int HEIGHT = 440;
  private static final int LEFT = 70;
  private static final int RIGHT = 200;
  private static final int TOP = 40;
  private static final int BOTTOM = 60;
  private static final String[] COLOURS = {"#222222", "#d62728", "#1f77b4", "#2ca02c", "#9467bd"};

  private LatencyChart() {}

  /**
   * {@code series}: label to sorted nanoseconds, drawn in order, the first (the floor) in black.
   */
  public static String svg(String title, Map<String, long[]> series) {
    double maxMicros = 1;
    for (long[] sorted : series.values()) {
      maxMicros = Math.max(maxMicros, Results.percentile(sorted, 95) / 1e3);
    }
    maxMicros = niceCeiling(maxMicros * 1.05);
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    StringBuilder out = new StringBuilder();
    out.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT))
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
        .append(text(LEFT, 22, 14, "start", escape(title)));
    for (int i = 0; i <= 5; i++) {
      double x = LEFT + plotWidth * i / 5.0;
      double micros = maxMicros * i / 5.0;
      out.append(line(x, TOP, x, TOP + plotHeight, "#e0e0e0"))
          .append(text(x, TOP + plotHeight + 18, 12, "middle", format(micros)));
      double y = TOP + plotHeight - plotHeight * i / 5.0;
      out.append(line(LEFT, y, LEFT + plotWidth, y, "#e0e0e0"))
          .append(text(LEFT - 8, y + 4, 12, "end", (i * 20) + "%"));
    }
    out.append(
            text(
                LEFT + plotWidth / 2.0,
                HEIGHT - 18,
                12,
                "middle",
                "microseconds after the commit acknowledgement"))
        .append(
            String.format(
                Locale.ROOT,
                "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">"
                    + "share of writes read back</text>%n",
                TOP + plotHeight / 2,
                TOP + plotHeight / 2));
    int index = 0;
    for (Map.Entry<String, long[]> entry : series.entrySet()) {
      String colour = COLOURS[index % COLOURS.length];
      long[] sorted = entry.getValue();
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < sorted.length; i += Math.max(1, sorted.length / 400)) {
        double micros = Math.max(0, Math.min(maxMicros, sorted[i] / 1e3));
        double x = LEFT + plotWidth * micros / maxMicros;
        double y = TOP + plotHeight - plotHeight * (i + 1.0) / sorted.length;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"%s\"/>%n",
              colour,
              index == 0 ? "2.5" : "1.8",
              points.toString().trim()));
      double legendY = TOP + 16 + index * 34;
      out.append(
              line(LEFT + plotWidth + 14, legendY - 4, LEFT + plotWidth + 34, legendY - 4, colour))
          .append(text(LEFT + plotWidth + 40, legendY, 12, "start", escape(entry.getKey())))
          .append(
              text(
                  LEFT + plotWidth + 40,
                  legendY + 14,
                  11,
                  "start",
                  "p50 "
                      + format(Results.percentile(sorted, 50) / 1e3)
                      + " p99 "
                      + format(Results.percentile(sorted, 99) / 1e3)
                      + " us"));
      index++;
    }
    out.append(line(LEFT, TOP, LEFT, TOP + plotHeight, "#444444"))
        .append(line(LEFT, TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight, "#444444"))
        .append("</svg>\n");
    return out.toString();
  }

  private static double niceCeiling(double value) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= value) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String format(double micros) {
    return String.format(Locale.ROOT, "%.0f", micros);
  }

  private static String line(double x1, double y1, double x2, double y2, String colour) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
        x1,
        y1,
        x2,
        y2,
        colour);
  }

  private static String text(double x, double y, int size, String anchor, String content) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">%s</text>%n",
        x,
        y,
        size,
        anchor,
        content);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
