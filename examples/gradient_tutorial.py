"""MindSpore's "Gradient Operation" tutorial as one script, written for MindSpore.

Run it unmodified on mindgrad:   mindgrad run examples/gradient_tutorial.py
"""
import numpy as np
import mindspore as ms
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor, Parameter, ParameterTuple
from mindspore import dtype as mstype

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")


class Net(nn.Cell):
    """out = (x * z) @ y with a trainable scale z."""

    def __init__(self):
        super(Net, self).__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name='z')

    def construct(self, x, y):
        return self.matmul(x * self.z, y)


class GradNet(nn.Cell):
    def __init__(self, net, grad_op, with_weights=False, sens=None):
        super(GradNet, self).__init__()
        self.net = net
        self.grad_op = grad_op
        self.params = ParameterTuple(net.trainable_params()) if with_weights else None
        self.sens = sens

    def construct(self, x, y):
        fn = self.grad_op(self.net, self.params) if self.params is not None else self.grad_op(self.net)
        if self.sens is not None:
            return fn(x, y, self.sens)
        return fn(x, y)


x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=mstype.float32)
y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=mstype.float32)

print("1. gradient with respect to the first input:")
print(GradNet(Net(), ops.GradOperation())(x, y))
print("2. gradients with respect to all inputs (get_all=True):")
print(GradNet(Net(), ops.GradOperation(get_all=True))(x, y))
print("3. gradient with respect to the weight z (get_by_list=True):")
print(GradNet(Net(), ops.GradOperation(get_by_list=True), with_weights=True)(x, y))
print("4. scaled by a sensitivity (sens_param=True):")
sens = Tensor([[0.1, 0.6, 0.2], [0.8, 1.3, 1.1]], dtype=mstype.float32)
print(GradNet(Net(), ops.GradOperation(sens_param=True), sens=sens)(x, y))


class StopNet(nn.Cell):
    def __init__(self):
        super(StopNet, self).__init__()
        self.matmul = ops.MatMul()

    def construct(self, x, y):
        out1 = self.matmul(x, y)
        out2 = ops.stop_gradient(self.matmul(x, y))
        return out1 + out2


print("5. stop_gradient: only the first product contributes:")
print(GradNet(StopNet(), ops.GradOperation())(x, y))


class CustomNet(nn.Cell):
    def __init__(self):
        super(CustomNet, self).__init__()
        self.matmul = ops.MatMul()

    def construct(self, x, y):
        return self.matmul(x, y)

    def bprop(self, x, y, out, dout):
        return x + 1, y + 1


print("6. a custom bprop replaces the gradient:")
print(GradNet(CustomNet(), ops.GradOperation(get_all=True))(x, y)[0])


class Sin(nn.Cell):
    def construct(self, x):
        return ops.sin(x)


class Grad(nn.Cell):
    def __init__(self, network):
        super(Grad, self).__init__()
        self.grad = ops.GradOperation()
        self.network = network

    def construct(self, x):
        return self.grad(self.network)(x)


print("7. derivatives of sin at 1.0, orders 1 to 3 (cos, -sin, -cos):")
t = Tensor(np.array([1.0], np.float32))
print(Grad(Sin())(t), Grad(Grad(Sin()))(t), Grad(Grad(Grad(Sin())))(t))


class Cube(nn.Cell):
    def construct(self, x, y):
        return x ** 3 + y


v = Tensor(np.ones((2, 2), np.float32))
a = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
print("8. forward mode (jvp) and reverse mode (vjp) of x**3 + y:")
print(ops.jvp(Cube(), (a, a), (v, v)))
print(ops.vjp(Cube(), (a, a), v))
