# Source: https://github.com/tensorflow/examples/blob/master/courses/udacity_intro_to_tensorflow_for_deep_learning/l08c03_moving_average.ipynb
#   (tensorflow/examples, courses/udacity_intro_to_tensorflow_for_deep_learning/l08c03_moving_average.ipynb), "Moving average"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the plotting (matplotlib: `plot_series`, `plt.*`) left
#   out, and the cells left empty by that dropped; `keras.metrics.mean_absolute_error(a, b)` ->
#   `keras.metrics.MeanAbsoluteError()(a, b)`, as TF 2.21's error suggests (its `tf.keras.metrics` and `tf.keras.losses`
#   no longer have the function: AttributeError)
import numpy as np
import minitape as tf

keras = tf.keras
# %%
def trend(time, slope=0):
    return slope * time

def seasonal_pattern(season_time):
    """Just an arbitrary pattern, you can change it if you wish"""
    return np.where(season_time < 0.4,
                    np.cos(season_time * 2 * np.pi),
                    1 / np.exp(3 * season_time))

def seasonality(time, period, amplitude=1, phase=0):
    """Repeats the same pattern at each period"""
    season_time = ((time + phase) % period) / period
    return amplitude * seasonal_pattern(season_time)

def white_noise(time, noise_level=1, seed=None):
    rnd = np.random.RandomState(seed)
    return rnd.randn(len(time)) * noise_level
# %%
time = np.arange(4 * 365 + 1)

slope = 0.05
baseline = 10
amplitude = 40
series = baseline + trend(time, slope) + seasonality(time, period=365, amplitude=amplitude)

noise_level = 5
noise = white_noise(time, noise_level, seed=42)

series += noise
# %%
split_time = 1000
time_train = time[:split_time]
x_train = series[:split_time]
time_valid = time[split_time:]
x_valid = series[split_time:]

naive_forecast = series[split_time - 1:-1]
# %%
keras.metrics.MeanAbsoluteError()(x_valid, naive_forecast).numpy()
# %%
def moving_average_forecast(series, window_size):
  """Forecasts the mean of the last few values.
     If window_size=1, then this is equivalent to naive forecast"""
  forecast = []
  for time in range(len(series) - window_size):
    forecast.append(series[time:time + window_size].mean())
  return np.array(forecast)
# %%
def moving_average_forecast(series, window_size):
  """Forecasts the mean of the last few values.
     If window_size=1, then this is equivalent to naive forecast
     This implementation is *much* faster than the previous one"""
  mov = np.cumsum(series)
  mov[window_size:] = mov[window_size:] - mov[:-window_size]
  return mov[window_size - 1:-1] / window_size
# %%
moving_avg = moving_average_forecast(series, 30)[split_time - 30:]
# %%
keras.metrics.MeanAbsoluteError()(x_valid, moving_avg).numpy()
# %%
diff_series = (series[365:] - series[:-365])
diff_time = time[365:]
# %%
diff_moving_avg = moving_average_forecast(diff_series, 50)[split_time - 365 - 50:]
# %%
diff_moving_avg_plus_past = series[split_time - 365:-365] + diff_moving_avg
# %%
keras.metrics.MeanAbsoluteError()(x_valid, diff_moving_avg_plus_past).numpy()
# %%
diff_moving_avg_plus_smooth_past = moving_average_forecast(series[split_time - 370:-359], 11) + diff_moving_avg
# %%
keras.metrics.MeanAbsoluteError()(x_valid, diff_moving_avg_plus_smooth_past).numpy()
