// sort.cu — one compare-exchange stage of a bitonic sort of n = 2^k unsigned keys. Stage (size,
// stride): thread i pairs with i ^ stride and orders the pair ascending when i & size is 0,
// descending otherwise. The host launches log2(n) (log2(n) + 1) / 2 stages.

extern "C" __global__ void bitonic_stage(unsigned *keys, unsigned size, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = i ^ stride;
    if (partner <= i)
        return;
    unsigned x = keys[i], y = keys[partner];
    bool ascending = (i & size) == 0;
    if ((x > y) == ascending) {
        keys[i] = y;
        keys[partner] = x;
    }
}
