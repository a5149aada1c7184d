# Code blocks of the seed text "使用 jax.pure_callback 进行无副作用调用" (the Chinese
# pure_callback tutorial, seed 000), copied verbatim and in order: the tutorial's main
# example, then its multi-output example. Never run by the tests: `jaxcb check` parses it.
# ruff: noqa
# fmt: off

import jax
import jax.numpy as jnp
import numpy as np # 使用 NumPy 作为“外部”函数

# 假设此函数代表一些复杂的纯计算
# 可能来自外部库或自定义 Python 代码。
def external_pure_python_computation(x: np.ndarray, y: float) -> np.ndarray:
  """一个纯 Python 函数的占位符。"""
  # 确保此函数的输入是 NumPy 数组
  if isinstance(x, jax.Array):
      x = np.array(x)
  # 纯计算示例：
  return np.sin(x) * y + 1.0

def jax_function_using_callback(a, b):
  """一个包含纯回调的 JAX 函数。"""

  # 定义预期的输出结构。
  # 这里，我们期望一个与 'a' 具有相同形状和数据类型的数组。
  output_shape_dtype = jax.ShapeDtypeStruct(a.shape, a.dtype)

  # 创建回调
  result = jax.pure_callback(
      external_pure_python_computation, # 纯 Python 函数
      output_shape_dtype,           # 预期的输出形状/数据类型
      a,                            # 示例/实际参数 'a'
      b                             # 示例/实际参数 'b'
      # 如果回调需要关键字参数，则传递它们
  )
  return result + a # 继续进行标准 JAX 操作

# JIT 内的用法示例
key = jax.random.PRNGKey(0)
input_array = jax.random.normal(key, (3, 3))
input_scalar = 2.0

jitted_function = jax.jit(jax_function_using_callback)

# 执行 JIT 编译的函数
output = jitted_function(input_array, input_scalar)
print("输入数组:\n", input_array)
print("\n输出数组:\n", output)

# 手动验证计算（近似回调）
expected_output = np.sin(np.array(input_array)) * input_scalar + 1.0 + np.array(input_array)
print("\n预期输出（近似）：\n", expected_output)

# 检查结果是否接近
assert np.allclose(output, expected_output)

# 也可以通过 pure_callback 进行 vmap 或 grad
vmapped_function = jax.vmap(jax_function_using_callback, in_axes=(0, None))
batched_input_array = jax.random.normal(key, (10, 3, 3))
batched_output = vmapped_function(batched_input_array, input_scalar)
print("\n批量输出的形状：", batched_output.shape)

grad_function = jax.grad(lambda x: jnp.sum(jax_function_using_callback(x, input_scalar)))
# 注意：Grad 要求回调函数对其输入是可微的，
# 而 pure_callback 本身不保证这一点。你通常会使用
# 自定义 VJP 来通过外部代码进行微分。
# 这个例子之所以有效，是因为 sin(x)*y 是可微的。
gradients = grad_function(input_array)
print("\n关于 input_array 的梯度：\n", gradients)

# 多个输出示例
def multi_output_pure_function(x):
    return np.sum(x), np.mean(x)

def jax_multi_output_callback(arr):
    # 指定输出结构：一个 float32 标量和另一个 float32 标量
    output_structure = (
        jax.ShapeDtypeStruct((), arr.dtype), # 标量的形状为 ()
        jax.ShapeDtypeStruct((), arr.dtype)
    )
    sum_val, mean_val = jax.pure_callback(
        multi_output_pure_function,
        output_structure,
        arr
    )
    return sum_val * 2, mean_val * 3

input_arr = jnp.arange(5.0)
res1, res2 = jax.jit(jax_multi_output_callback)(input_arr)
print(f"\n多个输出：{res1=}, {res2=}") # 输出：res1=20.0, res2=6.0
